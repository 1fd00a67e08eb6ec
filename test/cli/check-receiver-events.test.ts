import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { usePaysim, useReceiver } from "../helpers/disposables.js";
import type { ReceivedRequest } from "../helpers/receiver.js";

/** A JSON value's shape: its keys, in order, and the type of every value, all the way down. */
function shape(value: unknown): unknown {
  if (value === null) return "null";
  if (Array.isArray(value)) return value.map(shape);
  if (typeof value === "object") return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, shape(item)]));
  return typeof value;
}

const eventOf = (request: ReceivedRequest) => JSON.parse(request.body.toString("utf8")) as { type: string };
const headerNames = (request: ReceivedRequest) => Object.keys(request.headers).sort();

describe("the events paysim check-receiver sends", () => {
  it("have exactly the shape, and the headers, of the events a running paysim delivers", async () => {
    const real = await useReceiver(200);
    const paysim = await usePaysim({ forwardTo: real.url });
    const triggered = await runCli(["trigger", "payment_intent.captured", "--url", paysim.url, "--key", paysim.secretKey]);
    expect(triggered.code, triggered.stderr).toBe(0);
    const delivered = await real.waitForRequests(3); // created, authorized, captured

    const checked = await useReceiver(200);
    const run = await runCli(["check-receiver", checked.url, "--secret", "whsec_shape_test", "--only", "out-of-order"]);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(checked.requests.map((r) => eventOf(r).type)).toEqual(["payment_intent.captured", "payment_intent.authorized"]);

    for (const sent of checked.requests) {
      const type = eventOf(sent).type;
      const counterpart = delivered.find((r) => eventOf(r).type === type)!;
      expect(shape(eventOf(sent)), type).toEqual(shape(eventOf(counterpart)));
      expect(headerNames(sent), type).toEqual(headerNames(counterpart));
    }
    // A real card, not a placeholder: the shape check above would not see a string replaced by another.
    expect((eventOf(checked.requests[0]!) as unknown as { data: { card: unknown; state: string } }).data).toMatchObject({
      state: "captured",
      card: { last4: "4242", brand: "visa" },
    });
  });
});

import { beforeAll, describe, expect, it } from "vitest";
import { suiteScope, usePaysim, useReceiver } from "../helpers/disposables.js";
import { createIntent, type TestPaysim } from "../helpers/paysim.js";
import type { Receiver } from "../helpers/receiver.js";
import { runCli } from "../helpers/cli.js";

describe("paysim events show / resend with webhook deliveries", () => {
  const thisSuite = suiteScope();
  let receiver: Receiver;
  let paysim: TestPaysim;
  let eventId: string;
  beforeAll(async () => {
    receiver = await useReceiver(200, thisSuite);
    paysim = await usePaysim({ forwardTo: receiver.url }, thisSuite);
    await createIntent(paysim, { amount: 900 });
    const [first] = await receiver.waitForRequests(1);
    eventId = first!.headers["service-event-id"] as string;
  });

  const cli = (...args: string[]) => runCli([...args, "--url", paysim.url, "--key", paysim.secretKey]);

  it("shows each delivery and its attempts", async () => {
    const { code, stdout } = await cli("events", "show", eventId);
    expect(code).toBe(0);
    const endpointId = paysim.forwardEndpoints[0]!.id;
    expect(stdout).toMatch(new RegExp(`\\ndeliveries\\n  ${endpointId}  ${receiver.url}  succeeded  next attempt —\\n`));
    expect(stdout).toMatch(
      /\n {4}ATTEMPTED AT {2,}HTTP {2}DURATION {2}ERROR {2}CHAOS {2}RESPONSE\n {4}\d{4}-\d\d-\d\dT[\d:.]+Z {2,}200 {3}\d+ ms +— +— +answered 200\n$/,
    );
  });

  it("resends an event to the endpoint, which receives the same event again", async () => {
    const { code, stdout, stderr } = await cli("events", "resend", eventId);
    expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
    const endpointId = paysim.forwardEndpoints[0]!.id;
    // Only the delivery this resend made is listed, not the first one.
    expect(stdout).toMatch(
      new RegExp(
        `^Resent ${eventId}: a new delivery to 1 endpoint\\.\\ndeliveries\\n  ${endpointId}  ${receiver.url}  \\w+  next attempt [^\\n]+\\n(?!  ${endpointId})`,
      ),
    );
    expect(stdout.match(new RegExp(`^  ${endpointId}`, "gm"))).toHaveLength(1);
    const [, again] = await receiver.waitForRequests(2);
    expect(again!.headers["service-event-id"]).toBe(eventId);
    expect(JSON.parse(again!.body.toString("utf8")).id).toBe(eventId);

    const shown = JSON.parse((await cli("events", "show", eventId, "--json")).stdout);
    expect(shown.deliveries).toHaveLength(2);
  });
});

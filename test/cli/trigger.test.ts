import { beforeAll, describe, expect, it } from "vitest";
import { EVENT_TYPES, type EventType } from "../../src/domain/events.js";
import { resourceOfEventType } from "../../src/domain/resources.js";
import { suiteScope, usePaysim } from "../helpers/disposables.js";
import type { TestPaysim } from "../helpers/paysim.js";
import { runCli } from "../helpers/cli.js";

/**
 * What the object an event type is about looks like at the end of the run, where more is known of
 * it than every type shows (below): its first state, what a move sets besides the state.
 */
const EXPECTED_END: Partial<Record<EventType, { field: "state" | "status"; value: string; extra?: Record<string, unknown> }>> = {
  "payment_intent.created": { field: "state", value: "created" },
  "payment_intent.authorized": { field: "state", value: "authorized", extra: { card: { last4: "4242", brand: "visa" } } },
  "payment_intent.captured": { field: "state", value: "captured" },
  "payment_intent.canceled": { field: "state", value: "canceled", extra: { card: null } },
  "payment_intent.failed": { field: "state", value: "failed", extra: { failure_reason: "card_declined" } },
  "payout.created": { field: "status", value: "pending" },
  "payout.processing": { field: "status", value: "processing" },
  "payout.succeeded": { field: "status", value: "succeeded" },
  "payout.failed": { field: "status", value: "failed", extra: { failure_reason: "destination_rejected" } },
  "payout.returned": { field: "status", value: "returned", extra: { failure_reason: "returned_by_bank" } },
  "payout.reversed": { field: "status", value: "reversed", extra: { amount_reversed: 1000 } },
  "payout.partially_reversed": { field: "status", value: "partially_reversed", extra: { amount_reversed: 400 } },
};

const PAYMENT_INTENT_TYPES = EVENT_TYPES.filter((t) => t.startsWith("payment_intent."));
const PAYOUT_TYPES = EVENT_TYPES.filter((t) => t.startsWith("payout."));

/**
 * What every event type shows at the end of its run, read from the resource registry: the object
 * is one of the resource that emits it (`payout.failed`: a payout), and a type named after a move
 * of the resource's state machine leaves it in that state, under its `state` or `status`.
 */
function expectedEnd(type: EventType, last: Record<string, unknown>): Record<string, unknown> {
  const [object, name] = type.split(".") as [string, string];
  const moved = (resourceOfEventType(type)?.machine ?? []).some((move) => move.to === name);
  return { object, ...(moved ? { ["state" in last ? "state" : "status"]: name } : {}), ...EXPECTED_END[type]?.extra };
}

/** Runs the trigger with --json and checks the event it names against the server. */
async function expectTriggerProduces(paysim: TestPaysim, type: EventType): Promise<void> {
  const { code, stdout, stderr } = await runCli(["trigger", type, "--json", "--url", paysim.url, "--key", paysim.secretKey]);
  expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
  const output = JSON.parse(stdout);
  const last = output.steps.at(-1).response;
  const known = EXPECTED_END[type];
  const end = { ...expectedEnd(type, last), ...(known ? { [known.field]: known.value } : {}) };
  expect(last).toMatchObject(end);
  expect(output.event).toMatchObject({ type, data: { id: last.id } });

  const stored = await paysim.api("GET", `/v1/events/${output.event.id}`);
  expect(stored.status).toBe(200);
  expect(stored.body).toMatchObject({ id: output.event.id, type, data: { id: last.id, ...end } });
}

describe("paysim trigger (payouts auto)", () => {
  const thisSuite = suiteScope();
  let paysim: TestPaysim;
  beforeAll(async () => {
    paysim = await usePaysim({ payouts: "auto" }, thisSuite);
  });

  it.each([...EVENT_TYPES])("produces a %s event", async (type) => {
    await expectTriggerProduces(paysim, type);
  });

  it("prints the objects it made and the event id", async () => {
    // NO_COLOR unset: that stdout is not a terminal is enough to print no colour codes.
    const { code, stdout } = await runCli(["trigger", "payment_intent.captured", "--url", paysim.url, "--key", paysim.secretKey], {
      env: { NO_COLOR: undefined },
    });
    expect(code).toBe(0);
    const lines = stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^STEP\s+CALL\s+HTTP\s+OBJECT\s+STATE$/);
    expect(lines[1]).toMatch(/^pi\s+POST \/v1\/payment_intents\s+201\s+(pi_\w{24})\s+created$/);
    const id = /pi_\w{24}/.exec(lines[1]!)![0];
    expect(lines[2]).toMatch(new RegExp(`^authorize\\s+POST /v1/payment_intents/${id}/authorize\\s+200\\s+${id}\\s+captured$`));
    const eventId = /^event\s+(evt_\w{24})\s+payment_intent\.captured$/.exec(lines.at(-1)!)?.[1];
    const event = await paysim.api("GET", `/v1/events/${eventId}`);
    expect(event.body).toMatchObject({ type: "payment_intent.captured", data: { id } });
    expect(stdout).not.toContain("\u001b[");
  });

  it("changes a step's parameters with --override (JSON when it parses, else text)", async () => {
    const { code, stdout } = await runCli([
      "trigger",
      "payment_intent.created",
      "--json",
      "--override",
      "pi.body.amount=5000",
      "--override",
      "pi.body.currency=USD",
      "--url",
      paysim.url,
      "--key",
      paysim.secretKey,
    ]);
    expect(code).toBe(0);
    const { event } = JSON.parse(stdout);
    expect(event.data).toMatchObject({ amount: 5000, currency: "USD" });
  });

  it("stops at the step the server refuses, naming it with the error's code and message", async () => {
    const before = await paysim.api("GET", "/v1/events?limit=1");
    const { code, stdout, stderr } = await runCli([
      "trigger",
      "payment_intent.failed",
      "--override",
      "authorize.body.payment_method=pm_card_unknown",
      "--url",
      paysim.url,
      "--key",
      paysim.secretKey,
    ]);
    expect(code).toBe(1);
    expect(stderr).toMatch(/^paysim: step "authorize" failed \(HTTP 400\): invalid_request: .+ \(param: payment_method\)\n$/);
    // The step that did run is shown: its object exists now.
    const intentId = /^pi\s+POST \/v1\/payment_intents\s+201\s+(pi_\w{24})\s+created$/m.exec(stdout)?.[1];
    expect(intentId).toBeDefined();
    const after = await paysim.api("GET", "/v1/events?limit=100");
    const seen = after.body.data.findIndex((e: any) => e.id === before.body.data[0]?.id);
    const newer = after.body.data.slice(0, seen === -1 ? undefined : seen);
    // Earlier triggers' payouts keep moving by themselves (--payouts auto): only this run's intent counts.
    expect(newer.filter((e: any) => e.data.id === intentId).map((e: any) => e.type)).toEqual(["payment_intent.created"]);
  });

  it("refuses an override of a step the fixture does not have", async () => {
    const { code, stderr } = await runCli(["trigger", "payout.failed", "--override", "pi.body.amount=1", "--url", paysim.url, "--key", paysim.secretKey]);
    expect(code).toBe(1);
    expect(stderr).toMatch(/no step named "pi"; the steps are po, failed/);
  });

  it("refuses a malformed --override", async () => {
    const { code, stderr } = await runCli(["trigger", "payout.failed", "--override", "po.body.amount", "--url", paysim.url, "--key", paysim.secretKey]);
    expect(code).toBe(1);
    expect(stderr).toMatch(/--override "po.body.amount": must look like step.field=value/);
  });

  it("refuses an unknown event type, listing the valid ones", async () => {
    const { code, stdout, stderr } = await runCli(["trigger", "payment_intent.paid", "--url", paysim.url, "--key", paysim.secretKey]);
    expect(code).toBe(1);
    expect(stdout).toBe("");
    expect(stderr).toBe(
      `paysim trigger: "payment_intent.paid" is not an event type; did you mean payment_intent.failed? The event types are: ${EVENT_TYPES.join(", ")}.\nsee paysim trigger --help\n`,
    );
  });

  it("refuses a missing event type with the usage", async () => {
    const { code, stderr } = await runCli(["trigger", "--url", paysim.url, "--key", paysim.secretKey]);
    expect(code).toBe(1);
    expect(stderr).toBe("paysim trigger: the <event-type> argument is missing.\nsee paysim trigger --help\n");
  });
});

describe("paysim trigger (payouts manual)", () => {
  const thisSuite = suiteScope();
  let paysim: TestPaysim;
  beforeAll(async () => {
    paysim = await usePaysim({ payouts: "manual" }, thisSuite);
  });

  it.each([...PAYOUT_TYPES])("produces a %s event", async (type) => {
    await expectTriggerProduces(paysim, type);
  });

  it.each([...PAYMENT_INTENT_TYPES])("produces a %s event", async (type) => {
    await expectTriggerProduces(paysim, type);
  });
});

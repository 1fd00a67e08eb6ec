import { beforeAll, describe, expect, it } from "vitest";
import { sampleIntentEvents } from "../../src/cli/sample-events.js";
import { runReceiverCheck, type IntentEvents } from "../../src/webhooks/receiver-check.js";
import { useReceiver } from "../helpers/disposables.js";
import { manualTimers } from "../helpers/manual-timers.js";

// How long an answer took is measured on the check's timers: here the test's, so the grade
// depends on when the receiver is let to answer, never on the load of the machine.

const SECRET = "whsec_receiver_check_timers_0001";
const LIMIT_MS = 4000;
let events: IntentEvents;

beforeAll(async () => {
  [events] = (await sampleIntentEvents(1)) as [IntentEvents];
});

describe("runReceiverCheck on the timers it is given", () => {
  it.each([
    { answersAfterMs: 999, verdict: "pass", reason: null },
    { answersAfterMs: 1000, verdict: "warn", reason: "took 1000 ms; answer within 1000 ms, the limit is 4000 ms" },
    { answersAfterMs: 3999, verdict: "warn", reason: "took 3999 ms; answer within 1000 ms, the limit is 4000 ms" },
  ])("grades a right answer after $answersAfterMs ms of a 4000 ms limit: $verdict", async ({ answersAfterMs, verdict, reason }) => {
    const timers = manualTimers();
    const receiver = await useReceiver("hang");
    const checking = runReceiverCheck({ url: receiver.url, secret: SECRET, timeoutMs: LIMIT_MS, cases: [{ name: "valid", events }], timers });
    await receiver.waitForRequests(1);
    timers.advance(answersAfterMs);
    receiver.release(200);
    const outcome = await checking;
    expect(outcome).toEqual({ results: [expect.objectContaining({ case: "valid", verdict, got: "200", durationMs: answersAfterMs, reason })] });
  });

  it("fails a receiver that has not answered when the limit is reached, and takes no later answer", async () => {
    const timers = manualTimers();
    const receiver = await useReceiver("hang");
    const checking = runReceiverCheck({ url: receiver.url, secret: SECRET, timeoutMs: LIMIT_MS, cases: [{ name: "valid", events }], timers });
    await receiver.waitForRequests(1);
    timers.advance(LIMIT_MS);
    const outcome = await checking;
    expect(outcome).toMatchObject({ results: [{ case: "valid", verdict: "FAIL", reason: `timeout: no response within ${LIMIT_MS} ms` }] });
    expect(receiver.requests[0]!.answered).toBe(false);
  });
});

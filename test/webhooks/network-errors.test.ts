import { describe, expect, it } from "vitest";
import { useReceiver } from "../helpers/disposables.js";
import { manualTimers } from "../helpers/manual-timers.js";
import type { TestPaysim } from "../helpers/paysim.js";
import { closedPortUrl } from "../helpers/receiver.js";
import { advance, emitCreatedEvent, eventWithDeliveries, settle, useFrozenPaysim } from "./support.js";

const delivery = async (p: TestPaysim, eventId: string) => (await eventWithDeliveries(p, eventId)).deliveries[0];

describe("a delivery that gets no HTTP answer", () => {
  it("records a receiver that never answers within the webhook timeout as a timeout, and retries it on schedule", async () => {
    const receiver = await useReceiver("hang");
    // The timeout runs on timers the test moves: an answer is never cut off by a loaded machine.
    const timers = manualTimers();
    const paysim = await useFrozenPaysim({ forwardTo: receiver.url, webhookTimeout: 300, timers });
    /** The receiver holds its `n`-th request open until the timers reach the webhook timeout. */
    const timeOut = async (n: number) => {
      await receiver.waitForRequests(n);
      timers.advance(300);
      await settle(paysim);
    };
    const { eventId } = await emitCreatedEvent(paysim);
    await timeOut(1);

    const timedOut = await delivery(paysim, eventId);
    expect(timedOut.status).toBe("pending");
    expect(timedOut.attempts).toHaveLength(1);
    expect(timedOut.attempts[0].status_code).toBeNull();
    expect(timedOut.attempts[0].error).toMatch(/timeout/i);
    expect(timedOut.attempts[0].error).toContain("300 ms");
    expect(timedOut.attempts[0].duration_ms).toBe(300);
    expect(Date.parse(timedOut.next_attempt_at)).toBe(Date.parse(timedOut.attempts[0].attempted_at) + 30_000);

    // Not earlier than the schedule says, then again when due (still hanging: a second timeout).
    await advance(paysim, 29);
    expect(receiver.requests).toHaveLength(1);
    expect((await paysim.api("POST", "/v1/sandbox/clock/advance", { body: { seconds: 1 } })).status).toBe(200);
    await timeOut(2);
    expect(receiver.requests).toHaveLength(2);
    const twice = await delivery(paysim, eventId);
    expect(twice.attempts.map((a: any) => [a.status_code, /timeout/i.test(a.error)])).toEqual([
      [null, true],
      [null, true],
    ]);

    // The receiver answers in time now: delivered on the next retry.
    receiver.respondWith(200);
    await advance(paysim, 120);
    const done = await delivery(paysim, eventId);
    expect(done.status).toBe("succeeded");
    expect(done.attempts.map((a: any) => a.status_code)).toEqual([null, null, 200]);
    expect(done.attempts[2].error).toBeNull();
  });

  it("records an endpoint on a closed port as connection refused, and retries it on schedule", async () => {
    const paysim = await useFrozenPaysim({ forwardTo: await closedPortUrl() });
    const { eventId } = await emitCreatedEvent(paysim);
    await settle(paysim);

    const refused = await delivery(paysim, eventId);
    expect(refused.status).toBe("pending");
    expect(refused.attempts).toEqual([
      { attempted_at: expect.any(String), status_code: null, error: "connection refused", duration_ms: expect.any(Number), response_body: null, chaos: null },
    ]);

    await advance(paysim, 29);
    expect((await delivery(paysim, eventId)).attempts).toHaveLength(1);
    await advance(paysim, 1);
    const again = await delivery(paysim, eventId);
    expect(again.attempts.map((a: any) => a.error)).toEqual(["connection refused", "connection refused"]);
    expect(Date.parse(again.next_attempt_at)).toBe(Date.parse(again.attempts[1].attempted_at) + 120_000);
  });

  it("records a receiver that resets the connection as connection reset, and retries it on schedule", async () => {
    const receiver = await useReceiver(200);
    receiver.queue("destroy");
    const paysim = await useFrozenPaysim({ forwardTo: receiver.url });
    const { eventId } = await emitCreatedEvent(paysim);
    await receiver.waitForRequests(1);
    await settle(paysim);

    const reset = await delivery(paysim, eventId);
    expect(reset.status).toBe("pending");
    expect(reset.attempts).toEqual([
      { attempted_at: expect.any(String), status_code: null, error: "connection reset", duration_ms: expect.any(Number), response_body: null, chaos: null },
    ]);

    await advance(paysim, 30);
    expect(receiver.requests).toHaveLength(2);
    expect(receiver.requests[1]!.body.equals(receiver.requests[0]!.body)).toBe(true);
    const done = await delivery(paysim, eventId);
    expect(done.status).toBe("succeeded");
    expect(done.attempts.map((a: any) => a.status_code)).toEqual([null, 200]);
  });

  it("gives up a receiver that always times out after 7 attempts", async () => {
    const receiver = await useReceiver("hang");
    const paysim = await useFrozenPaysim({ forwardTo: receiver.url, webhookTimeout: 50 });
    const { eventId } = await emitCreatedEvent(paysim);
    await receiver.waitForRequests(1);
    await settle(paysim);
    for (const delay of [30, 120, 600, 3600, 21_600, 86_400]) await advance(paysim, delay);

    const given = await delivery(paysim, eventId);
    expect(given.status).toBe("failed");
    expect(given.next_attempt_at).toBeNull();
    expect(given.attempts).toHaveLength(7);
    expect(given.attempts.every((a: any) => a.status_code === null && /timeout/i.test(a.error))).toBe(true);
    expect(receiver.requests).toHaveLength(7);
  });
});

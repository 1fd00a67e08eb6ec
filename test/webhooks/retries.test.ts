import { describe, expect, it } from "vitest";
import { useReceiver } from "../helpers/disposables.js";
import type { TestPaysim } from "../helpers/paysim.js";
import { advance, emitCreatedEvent, eventWithDeliveries, settle, useFrozenPaysim } from "./support.js";

/** Seconds between attempts: 30 s, 2 min, 10 min, 1 h, 6 h, 24 h. */
const DELAYS = [30, 120, 600, 3600, 21_600, 86_400];
const TWO_DAYS = 2 * 86_400;

/** A paysim forwarding to a receiver that answers `behaviour`, with one event delivered once. */
async function firstAttemptMade(status: number) {
  const receiver = await useReceiver(status);
  const paysim = await useFrozenPaysim({ forwardTo: receiver.url });
  const { eventId } = await emitCreatedEvent(paysim);
  await receiver.waitForRequests(1);
  await settle(paysim);
  return { paysim, receiver, eventId };
}

const delivery = async (p: TestPaysim, eventId: string) => (await eventWithDeliveries(p, eventId)).deliveries[0];

describe("webhook retries on the virtual clock", () => {
  it("makes each retry when the clock reaches its due time and not a second earlier: 30 s, 2 min, 10 min, 1 h, 6 h, 24 h", async () => {
    const { paysim, receiver, eventId } = await firstAttemptMade(500);
    const firstAt = Date.parse((await delivery(paysim, eventId)).attempts[0].attempted_at);
    let lastAt = firstAt;

    for (const [i, delay] of DELAYS.entries()) {
      const attemptsSoFar = i + 1;
      const pending = await delivery(paysim, eventId);
      expect(pending.status).toBe("pending");
      expect(pending.next_attempt_at).toBe(new Date(lastAt + delay * 1000).toISOString());

      await advance(paysim, delay - 1);
      expect(receiver.requests, `retry ${attemptsSoFar} made a second early`).toHaveLength(attemptsSoFar);
      await advance(paysim, 1);
      expect(receiver.requests, `retry ${attemptsSoFar} not made when due`).toHaveLength(attemptsSoFar + 1);

      const after = await delivery(paysim, eventId);
      expect(after.attempts).toHaveLength(attemptsSoFar + 1);
      lastAt = Date.parse(after.attempts.at(-1).attempted_at);
      expect(lastAt).toBe(Date.parse(pending.next_attempt_at));
    }
    expect(lastAt - firstAt).toBe(DELAYS.reduce((a, b) => a + b, 0) * 1000);
  });

  it("gives up after 7 attempts: the delivery is failed with next_attempt_at null and no attempt follows", async () => {
    const { paysim, receiver, eventId } = await firstAttemptMade(500);
    for (const delay of DELAYS) await advance(paysim, delay);
    expect(receiver.requests).toHaveLength(7);

    const given = await delivery(paysim, eventId);
    expect(given.status).toBe("failed");
    expect(given.next_attempt_at).toBeNull();
    expect(given.attempts).toHaveLength(7);
    for (const attempt of given.attempts) {
      expect(attempt).toEqual({
        attempted_at: expect.any(String),
        status_code: 500,
        error: null,
        duration_ms: expect.any(Number),
        response_body: "answered 500",
        chaos: null,
      });
    }

    await advance(paysim, TWO_DAYS);
    await advance(paysim, TWO_DAYS);
    expect(receiver.requests).toHaveLength(7);
    expect((await delivery(paysim, eventId)).attempts).toHaveLength(7);
  });

  it("makes at most one attempt per delivery for one clock advance, however long", async () => {
    const { paysim, receiver, eventId } = await firstAttemptMade(500);
    await advance(paysim, TWO_DAYS);
    expect(receiver.requests).toHaveLength(2);
    const afterJump = await delivery(paysim, eventId);
    expect(afterJump.attempts).toHaveLength(2);
    // The next delay counts from the attempt the jump made, not from the first attempt.
    expect(Date.parse(afterJump.next_attempt_at)).toBe(Date.parse(afterJump.attempts[1].attempted_at) + 120_000);

    await advance(paysim, TWO_DAYS);
    expect(receiver.requests).toHaveLength(3);
  });

  it("stops retrying once an attempt succeeds", async () => {
    const { paysim, receiver, eventId } = await firstAttemptMade(500);
    receiver.queue(502);
    receiver.respondWith(204);
    await advance(paysim, 30);
    await advance(paysim, 120);
    expect(receiver.requests).toHaveLength(3);

    const done = await delivery(paysim, eventId);
    expect(done.status).toBe("succeeded");
    expect(done.next_attempt_at).toBeNull();
    expect(done.attempts.map((a: any) => a.status_code)).toEqual([500, 502, 204]);

    await advance(paysim, TWO_DAYS);
    expect(receiver.requests).toHaveLength(3);
  });

  it.each([200, 201, 202, 204, 299])("counts a %i answer as delivered", async (status) => {
    const { paysim, receiver, eventId } = await firstAttemptMade(status);
    const done = await delivery(paysim, eventId);
    expect(done.status).toBe("succeeded");
    expect(done.attempts.map((a: any) => a.status_code)).toEqual([status]);
    await advance(paysim, 30);
    expect(receiver.requests).toHaveLength(1);
  });

  it.each([301, 302, 304, 400, 401, 404, 410, 429, 500, 503])("counts a %i answer as failed and retries it", async (status) => {
    const { paysim, receiver, eventId } = await firstAttemptMade(status);
    const failed = await delivery(paysim, eventId);
    expect(failed.status).toBe("pending");
    expect(failed.attempts.map((a: any) => a.status_code)).toEqual([status]);
    expect(failed.next_attempt_at).not.toBeNull();
    await advance(paysim, 30);
    expect(receiver.requests).toHaveLength(2);
  });
});

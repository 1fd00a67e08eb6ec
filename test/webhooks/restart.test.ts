import { describe, expect, it } from "vitest";
import { usePaysim, useReceiver, useTempPath } from "../helpers/disposables.js";
import type { Receiver } from "../helpers/receiver.js";
import { advance, emitCreatedEvent, eventWithDeliveries, settle } from "./support.js";

/** Real time as the test decides it: time can pass while paysim is down, without waiting for it. */
function fakeRealTime() {
  let now = Date.now();
  return { realNow: () => now, pass: (ms: number) => void (now += ms) };
}

const countFor = (r: Receiver, eventId: string) => r.requests.filter((req) => req.headers["service-event-id"] === eventId).length;

describe("webhook deliveries across a restart on the same database", () => {
  it("sends at start a retry that fell due while paysim was down, and keeps the schedule of one not yet due", async () => {
    const db = useTempPath();
    const real = fakeRealTime();
    const receiver = await useReceiver(500);
    const first = await usePaysim({ db, forwardTo: receiver.url, realNow: real.realNow });
    const early = await emitCreatedEvent(first); // fails now: retry due in 30 s
    await receiver.waitForRequests(1);
    await settle(first);
    await advance(first, 25);
    const late = await emitCreatedEvent(first); // fails 25 s later: retry due 55 s after the first
    await receiver.waitForRequests(2);
    await settle(first);
    const key = first.secretKey;
    await first.close(); // the database lives on in `db`'s folder

    real.pass(10_000); // down for 10 s: the first retry (at 30 s) fell due, the second (at 55 s) did not
    const second = await usePaysim({ db, forwardTo: receiver.url, secretKey: key, realNow: real.realNow });
    await settle(second);
    expect(countFor(receiver, early.eventId)).toBe(2);
    expect(countFor(receiver, late.eventId)).toBe(1);

    await advance(second, 19);
    expect(countFor(receiver, late.eventId)).toBe(1);
    await advance(second, 1);
    expect(countFor(receiver, late.eventId)).toBe(2);
    expect(countFor(receiver, early.eventId)).toBe(2);
    const shown = await eventWithDeliveries(second, early.eventId);
    expect(shown.deliveries[0].attempts.map((a: any) => a.status_code)).toEqual([500, 500]);
  });

  it("sends again at the next start an attempt cut off by a stop, showing the cut-off one as interrupted", async () => {
    const db = useTempPath();
    const receiver = await useReceiver(200);
    receiver.queue("hang");
    const first = await usePaysim({ db, forwardTo: receiver.url, webhookTimeout: 600_000 });
    const { eventId } = await emitCreatedEvent(first);
    await receiver.waitForRequests(1);
    const key = first.secretKey;
    await first.close(); // aborts the attempt in flight

    const second = await usePaysim({ db, forwardTo: receiver.url, secretKey: key });
    const [cutOff, again] = await receiver.waitForRequests(2);
    expect(again!.body.equals(cutOff!.body)).toBe(true);
    await settle(second);
    const { deliveries } = await eventWithDeliveries(second, eventId);
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0].status).toBe("succeeded");
    expect(deliveries[0].attempts).toEqual([
      { attempted_at: expect.any(String), status_code: null, error: expect.stringMatching(/interrupted/), duration_ms: null, response_body: null, chaos: null },
      { attempted_at: expect.any(String), status_code: 200, error: null, duration_ms: expect.any(Number), response_body: "answered 200", chaos: null },
    ]);
  });
});

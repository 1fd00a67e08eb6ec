import { once } from "node:events";
import { describe, expect, it } from "vitest";
import { PaysimTimeoutError, startPaysim, type RunningPaysim, type StartPaysimOptions } from "../../src/index.js";
import { realTimers } from "../../src/runtime/timers.js";
import { createWaits } from "../../src/testing/waits.js";
import { defer, usePaysim, useReceiver, useTempPath, useStartedPaysim } from "../helpers/disposables.js";
import { manualTimers } from "../helpers/manual-timers.js";
import { callApi, freshKey } from "../helpers/paysim.js";

const start = (options: StartPaysimOptions = {}) => useStartedPaysim(options);

const api = (paysim: { url: string; secretKey: string }, method: string, path: string, body?: object) =>
  callApi(paysim.url, paysim.secretKey, method, path, { body, idempotencyKey: method === "POST" ? freshKey() : undefined });

async function createIntent(paysim: RunningPaysim, body: object = { amount: 1000 }): Promise<string> {
  const created = await api(paysim, "POST", "/v1/payment_intents", body);
  expect(created.status).toBe(201);
  return created.body.id as string;
}

/** The event as GET /v1/events/:id shows it, without its deliveries. */
async function shownEvent(paysim: RunningPaysim, id: string) {
  const { body } = await api(paysim, "GET", `/v1/events/${id}`);
  return body as Record<string, unknown> & { deliveries: unknown[] };
}

/** The retry delays of docs/webhooks.md, in seconds: after the last, the delivery is given up. */
const RETRY_DELAYS = [30, 120, 600, 3600, 6 * 3600, 24 * 3600];

describe("events.waitFor and events.list", () => {
  it("resolves with an event that happened before the call, exactly as GET /v1/events/:id shows it", async () => {
    const paysim = await start();
    const intentId = await createIntent(paysim);
    const event = await paysim.events.waitFor({ type: "payment_intent.created", objectId: intentId });
    const { deliveries, ...shown } = await shownEvent(paysim, event.id);
    expect(event).toEqual(shown);
    expect(deliveries).toEqual([]);
    expect(event.data.id).toBe(intentId);
  });

  it("resolves with an event that happens after the call", async () => {
    const paysim = await start({ payouts: "manual" });
    const intentId = await createIntent(paysim, { amount: 500, capture_method: "manual" });
    const waiting = paysim.events.waitFor({ type: ["payment_intent.captured", "payment_intent.canceled"], objectId: intentId });
    await api(paysim, "POST", `/v1/payment_intents/${intentId}/authorize`, { payment_method: "pm_card_visa" });
    await api(paysim, "POST", `/v1/payment_intents/${intentId}/capture`);
    const event = await waiting;
    expect(event.type).toBe("payment_intent.captured");
    expect(event.data.id).toBe(intentId);
  });

  it("is not timed out by clock.advance: its timeout is real time", async () => {
    const paysim = await start();
    const waiting = paysim.events.waitFor({ type: "payment_intent.created" }, { timeout: 60_000 });
    await paysim.clock.advance("1d");
    const intentId = await createIntent(paysim);
    expect((await waiting).data.id).toBe(intentId);
  });

  it("lists every event since start, oldest first, filtered by type and object", async () => {
    const paysim = await start();
    const first = await createIntent(paysim, { amount: 100, capture_method: "manual" });
    const second = await createIntent(paysim, { amount: 200 });
    await api(paysim, "POST", `/v1/payment_intents/${first}/authorize`, { payment_method: "pm_card_visa" });

    const all = await paysim.events.list();
    expect(all.map((event) => [event.type, event.data.id])).toEqual([
      ["payment_intent.created", first],
      ["payment_intent.created", second],
      ["payment_intent.authorized", first],
    ]);
    for (const event of all) {
      const { deliveries: _, ...shown } = await shownEvent(paysim, event.id);
      expect(event).toEqual(shown);
    }
    expect((await paysim.events.list({ objectId: first })).map((event) => event.type)).toEqual(["payment_intent.created", "payment_intent.authorized"]);
    expect((await paysim.events.list({ type: "payment_intent.authorized" })).map((event) => event.data.id)).toEqual([first]);
    expect(await paysim.events.list({ type: ["payout.created"] })).toEqual([]);
  });

  it("lists only what happened since this start, not what an earlier run left in the database", async () => {
    const db = useTempPath();
    const earlier = await start({ db });
    await createIntent(earlier);
    await earlier.close();
    const paysim = await start({ db });
    expect(await paysim.events.list()).toEqual([]);
    const intentId = await createIntent(paysim);
    expect((await paysim.events.list()).map((event) => event.data.id)).toEqual([intentId]);
  });

  it("rejects after the timeout with a PaysimTimeoutError naming the filter and the last 10 events", async () => {
    const paysim = await start();
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) ids.push(await createIntent(paysim));
    const error = await paysim.events.waitFor({ type: "payment_intent.captured", objectId: ids[0] }, { timeout: 20 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaysimTimeoutError);
    expect(error).toBeInstanceOf(Error);
    const { name, message } = error as Error;
    expect(name).toBe("PaysimTimeoutError");
    expect(message).toBe(
      [
        `No event matched {"type":"payment_intent.captured","objectId":"${ids[0]}"} within 20 ms.`,
        "The last 10 event(s), oldest first:",
        ...ids.slice(2).map((id) => `  payment_intent.created ${id}`),
      ].join("\n"),
    );
  });

  it("times out on the instance's timers: when they are moved past its timeout, with no real wait", async () => {
    const timers = manualTimers();
    const paysim = await usePaysim({ timers });
    let outcome: unknown;
    const waiting = paysim.waits.events.waitFor({ type: "payout.created" }, { timeout: 60_000 }).catch((error: unknown) => (outcome = error));
    timers.advance(59_999);
    await timers.settled();
    expect(outcome).toBeUndefined();
    timers.advance(1);
    await waiting;
    expect(outcome).toBeInstanceOf(PaysimTimeoutError);
    expect((outcome as Error).message).toMatch(/^No event matched \{"type":"payout.created"\} within 60000 ms\./);
    expect(paysim.waits.running()).toBe(0);
  });

  it("says so when nothing happened at all", async () => {
    const paysim = await start();
    await expect(paysim.events.waitFor({}, { timeout: 0 })).rejects.toThrow(
      "No event matched {} within 0 ms.\nNo event has happened since paysim started (or was last reset).",
    );
  });

  it.each([
    [
      { type: "payment_intent.captureed" },
      'Bad events filter: type "payment_intent.captureed" is not an event type; did you mean "payment_intent.captured"? The event types are: payment_intent.created, payment_intent.authorized, payment_intent.captured,',
    ],
    [
      { type: ["payment_intent.created", "refund.created"] },
      'Bad events filter: type[1] "refund.created" is not an event type. The event types are: payment_intent.created,',
    ],
    [{ type: [] }, "Bad events filter: type is an empty list; give at least one event type, or leave type out to match every type."],
    [{ object_id: "pi_1" }, 'Bad events filter: unknown key "object_id"; did you mean "objectId"? Known keys: type, objectId.'],
    [{ objectId: 7 }, 'Bad events filter: objectId is 7 (a number); it must be a non-empty string: the id of the object the event is about, e.g. "pi_…".'],
    [{ objectId: {} }, "Bad events filter: objectId is {} (an object); it must be a non-empty string:"],
    [null, 'Bad events filter: the events filter is null; pass an object such as { type: "payment_intent.captured" }, or {} for every event.'],
  ])("refuses the filter %j with a TypeError, waiting for nothing", async (filter, message) => {
    const paysim = await start();
    await expect(paysim.events.waitFor(filter as never)).rejects.toThrow(
      expect.objectContaining({ name: "TypeError", message: expect.stringContaining(message) }),
    );
    await expect(paysim.events.list(filter as never)).rejects.toThrow(TypeError);
  });

  it.each([[-1], [1.5], [Number.POSITIVE_INFINITY], [2 ** 31], ["100"]])("refuses the timeout %j with a TypeError", async (timeout) => {
    const paysim = await start();
    await expect(paysim.events.waitFor({}, { timeout: timeout as number })).rejects.toThrow(
      expect.objectContaining({
        name: "TypeError",
        message: `Bad wait options: timeout is ${typeof timeout === "string" ? `"${timeout}"` : `${timeout} (a number)`}; it must be a whole number of milliseconds from 0 to 2147483647.`,
      }),
    );
  });
});

describe("webhooks.waitFor", () => {
  it("resolves for a delivery that succeeded before the call and for one that succeeds after", async () => {
    const receiver = await useReceiver(200);
    const paysim = await start({ forwardTo: receiver.url });
    const before = await createIntent(paysim);
    await receiver.waitForRequests(1);
    const early = await paysim.webhooks.waitFor({ objectId: before });
    // Both the event and the delivery are as GET /v1/events/:id shows them.
    const { deliveries, ...event } = await shownEvent(paysim, early.event.id);
    expect(early.event).toEqual(event);
    expect(early.delivery).toEqual(deliveries[0]);
    expect(early.delivery).toMatchObject({ url: receiver.url, status: "succeeded", next_attempt_at: null });
    expect(early.delivery.attempts).toEqual([expect.objectContaining({ status_code: 200, error: null })]);

    // A wait started before its event exists: the bus tells it when the delivery succeeds.
    const waiting = paysim.webhooks.waitFor({ type: "payment_intent.canceled", objectId: before, url: receiver.url, status: "succeeded" });
    await api(paysim, "POST", `/v1/payment_intents/${before}/cancel`);
    const later = await waiting;
    expect(later.event).toMatchObject({ type: "payment_intent.canceled", data: { id: before } });
    expect(later.delivery).toMatchObject({ url: receiver.url, status: "succeeded" });
    expect(receiver.requests).toHaveLength(2);
  });

  it("waits for the delivery a resend made with resent: true, never taking the event's first delivery for it", async () => {
    const receiver = await useReceiver(200);
    const paysim = await start({ forwardTo: receiver.url });
    const intentId = await createIntent(paysim);
    const first = await paysim.webhooks.waitFor({ type: "payment_intent.created", objectId: intentId });

    // Started before the resend: the first delivery has succeeded already, and is not what it asks for.
    const waiting = paysim.webhooks.waitFor({ type: "payment_intent.created", objectId: intentId, resent: true });
    const resend = await api(paysim, "POST", `/v1/events/${first.event.id}/resend`, {});
    expect(resend.status, resend.text).toBe(200);
    const resent = await waiting;
    expect(resent.event.id).toBe(first.event.id);
    expect(resent.delivery.id).not.toBe(first.delivery.id);
    expect(resent.delivery).toMatchObject({ url: receiver.url, status: "succeeded" });
    expect(receiver.requests).toHaveLength(2);

    // Asked after it happened, the store has it; resent: false asks for the first one only.
    expect((await paysim.webhooks.waitFor({ objectId: intentId, resent: true })).delivery.id).toBe(resent.delivery.id);
    expect((await paysim.webhooks.waitFor({ objectId: intentId, resent: false })).delivery.id).toBe(first.delivery.id);
    await expect(paysim.webhooks.waitFor({ resent: "yes" } as never)).rejects.toThrow(/Bad webhooks filter: resent is "yes"; it must be true/);
  });

  it('resolves for status "attempted" once any attempt has ended, and "succeeded" only on a 2xx', async () => {
    const receiver = await useReceiver(200);
    receiver.queue(500);
    const paysim = await start({ forwardTo: receiver.url });
    const succeeded = paysim.webhooks.waitFor({ type: "payment_intent.created" });
    const intentId = await createIntent(paysim);
    const attempted = await paysim.webhooks.waitFor({ objectId: intentId, status: "attempted" });
    expect(attempted.delivery.status).toBe("pending");
    expect(attempted.delivery.attempts).toEqual([expect.objectContaining({ status_code: 500 })]);
    expect(attempted.delivery.next_attempt_at).not.toBeNull();

    await paysim.clock.advance(RETRY_DELAYS[0]!);
    const delivered = await succeeded;
    expect(delivered.delivery.status).toBe("succeeded");
    expect(delivered.delivery.attempts.map((attempt) => attempt.status_code)).toEqual([500, 200]);
  });

  it('does not count an attempt still in flight as "attempted"', async () => {
    const receiver = await useReceiver("hang");
    const paysim = await start({ forwardTo: receiver.url });
    const intentId = await createIntent(paysim);
    await receiver.waitForRequests(1);
    await expect(paysim.webhooks.waitFor({ objectId: intentId, status: "attempted" }, { timeout: 0 })).rejects.toThrow(
      `  payment_intent.created ${receiver.url} pending, no attempt ended yet`,
    );
    const attempted = paysim.webhooks.waitFor({ objectId: intentId, status: "attempted" });
    receiver.release(204);
    expect((await attempted).delivery).toMatchObject({ status: "succeeded", attempts: [expect.objectContaining({ status_code: 204 })] });
  });

  it("rejects after the timeout listing the last deliveries: type, url, status, last status code", async () => {
    const receiver = await useReceiver(503);
    const paysim = await start({ forwardTo: receiver.url });
    const intentId = await createIntent(paysim);
    await paysim.webhooks.waitFor({ objectId: intentId, status: "attempted" });
    const error = (await paysim.webhooks.waitFor({ objectId: intentId }, { timeout: 10 }).catch((e: unknown) => e)) as Error;
    expect(error).toBeInstanceOf(PaysimTimeoutError);
    expect(error.message).toBe(
      [
        `No webhook delivery matched {"objectId":"${intentId}"} within 10 ms.`,
        "The last 1 delivery(ies), oldest first:",
        `  payment_intent.created ${receiver.url} pending, last status 503`,
      ].join("\n"),
    );
  });

  it("names a delivery that got no answer, and says so when no delivery was made", async () => {
    const receiver = await useReceiver("destroy");
    const paysim = await start({ forwardTo: receiver.url });
    await expect(paysim.webhooks.waitFor({}, { timeout: 0 })).rejects.toThrow(
      "No webhook delivery matched {} within 0 ms.\nNo delivery has been made since paysim started (or was last reset).",
    );
    const intentId = await createIntent(paysim);
    await paysim.webhooks.waitFor({ objectId: intentId, status: "attempted" });
    await expect(paysim.webhooks.waitFor({ status: "failed" }, { timeout: 0 })).rejects.toThrow(
      new RegExp(`  payment_intent\\.created ${receiver.url.replace(/\./g, "\\.")} pending, last attempt got no answer \\(.+\\)$`),
    );
  });

  it("rejects naming the cause when paysim has no webhook endpoint, or none listening to the type", async () => {
    const paysim = await start();
    await createIntent(paysim);
    await expect(paysim.webhooks.waitFor({ type: "payment_intent.created" }, { timeout: 0 })).rejects.toThrow(
      'No webhook delivery matched {"type":"payment_intent.created"} within 0 ms.\nNo webhook endpoint is registered, so nothing is delivered',
    );
    expect((await api(paysim, "POST", "/v1/webhook_endpoints", { url: "http://127.0.0.1:9/payouts", enabled_events: ["payout.created"] })).status).toBe(201);
    await expect(paysim.webhooks.waitFor({ type: "payment_intent.created" }, { timeout: 0 })).rejects.toThrow(
      "\nNo webhook endpoint listens to payment_intent.created, so nothing of that type is delivered (http://127.0.0.1:9/payouts listens to payout.created)",
    );
  });

  it('resolves "failed" for a pending delivery stopped by deleting its endpoint', async () => {
    const receiver = await useReceiver(500);
    const paysim = await start({ forwardTo: receiver.url });
    const intentId = await createIntent(paysim);
    await paysim.webhooks.waitFor({ objectId: intentId, status: "attempted" });
    const failed = paysim.webhooks.waitFor({ objectId: intentId, status: "failed" });
    const endpoints = await api(paysim, "GET", "/v1/webhook_endpoints");
    expect((await api(paysim, "DELETE", `/v1/webhook_endpoints/${endpoints.body.data[0].id}`)).status).toBe(200);
    const { delivery } = await failed;
    expect(delivery).toMatchObject({ status: "failed", next_attempt_at: null });
    expect(delivery.attempts).toEqual([expect.objectContaining({ status_code: 500 })]);
  });

  it.each([
    [{ status: "delivered" }, 'Bad webhooks filter: status is "delivered"; it must be "succeeded", "failed" or "attempted".'],
    [{ url: "" }, 'Bad webhooks filter: url is ""; it must be a non-empty string: the endpoint\'s URL.'],
    [{ endpoint: "we_1" }, 'Bad webhooks filter: unknown key "endpoint". Known keys: type, objectId, url, status, attempt, chaos, resent.'],
    [
      { objectid: "pi_1" },
      'Bad webhooks filter: unknown key "objectid"; did you mean "objectId"? Known keys: type, objectId, url, status, attempt, chaos, resent.',
    ],
  ])("refuses the filter %j with a TypeError", async (filter, message) => {
    const paysim = await start();
    await expect(paysim.webhooks.waitFor(filter as never)).rejects.toThrow(
      expect.objectContaining({ name: "TypeError", message: expect.stringContaining(message) }),
    );
  });
});

describe("webhooks.waitFor a retry or an attempt chaos made", () => {
  it("resolves for the n-th attempt: a receiver that fails twice then succeeds, its retries made by clock.advance", async () => {
    const receiver = await useReceiver(200);
    receiver.queue(500, 500);
    const paysim = await start({ forwardTo: receiver.url });
    const third = paysim.webhooks.waitFor({ type: "payment_intent.created", attempt: 3 });
    const intentId = await createIntent(paysim);
    // Without a status, attempt n resolves whatever the attempt got.
    const first = await paysim.webhooks.waitFor({ objectId: intentId, attempt: 1 });
    expect(first.delivery.attempts.map((attempt) => attempt.status_code)).toEqual([500]);
    await paysim.clock.advance("30s");
    const second = await paysim.webhooks.waitFor({ objectId: intentId, attempt: 2 });
    expect(second.delivery).toMatchObject({ status: "pending", attempts: [{ status_code: 500 }, { status_code: 500 }] });
    await paysim.clock.advance("2m");
    const { delivery } = await third;
    expect(delivery.status).toBe("succeeded");
    expect(delivery.attempts.map((attempt) => attempt.status_code)).toEqual([500, 500, 200]);
    // With a status too, both must hold: this delivery never failed for good.
    await expect(paysim.webhooks.waitFor({ objectId: intentId, attempt: 2, status: "failed" }, { timeout: 1 })).rejects.toThrow(PaysimTimeoutError);
  });

  it("resolves for a chaos duplicate, which is an extra attempt, not a retry", async () => {
    const receiver = await useReceiver(200);
    const paysim = await start({ forwardTo: receiver.url, chaos: { duplicate: 1 } });
    const duplicate = paysim.webhooks.waitFor({ type: "payment_intent.created", chaos: "duplicate" });
    const intentId = await createIntent(paysim);
    await paysim.webhooks.waitFor({ objectId: intentId });
    // The duplicate goes out 1 to 10 s of clock time after the success.
    await paysim.clock.advance("10s");
    const { event, delivery } = await duplicate;
    expect(event.data.id).toBe(intentId);
    expect(delivery.status).toBe("succeeded");
    expect(delivery.attempts.map((attempt) => [attempt.status_code, attempt.chaos])).toEqual([
      [200, null],
      [200, "duplicate"],
    ]);
    expect(receiver.requests).toHaveLength(2);
    await expect(paysim.webhooks.waitFor({ objectId: intentId, attempt: 2 }, { timeout: 1 })).rejects.toThrow(
      "  payment_intent.created " + receiver.url + " succeeded, last status 200",
    );
  });
});

describe("the waits on the bus", () => {
  /** An instance built as startPaysim builds it, with its bus in reach to count listeners. */
  async function instanceWithWaits(options: { forwardTo?: string } = {}) {
    const paysim = await usePaysim(options);
    const waits = createWaits({ bus: paysim.bus, store: paysim.store, afterSeq: 0, timers: realTimers });
    defer(() => waits.close());
    const listeners = () =>
      ["event.created", "delivery.attempted", "deliveries.stopped", "sandbox.reset"].map((name) => paysim.bus.listenerCount(name as "event.created"));
    return { paysim, waits, listeners };
  }

  it('resolves "failed" once the last retry is given up, for a wait started before and one after', async () => {
    const receiver = await useReceiver(500);
    const { paysim, waits } = await instanceWithWaits({ forwardTo: receiver.url });
    const failedLater = waits.webhooks.waitFor({ type: "payment_intent.created", status: "failed" }, { timeout: 20_000 });
    const ended = () => once(paysim.bus, "delivery.attempted");
    const first = ended();
    await paysim.api("POST", "/v1/payment_intents", { body: { amount: 700 }, idempotencyKey: freshKey() });
    await first;
    // The clock runs the schedule: each advance makes the one attempt that fell due.
    for (const seconds of RETRY_DELAYS) {
      const next = ended();
      await paysim.advanceClock(seconds);
      await next;
    }
    const { delivery } = await failedLater;
    expect(delivery.status).toBe("failed");
    expect(delivery.attempts).toHaveLength(7);
    expect(delivery.next_attempt_at).toBeNull();
    const again = await waits.webhooks.waitFor({ status: "failed" });
    expect(again.delivery).toEqual(delivery);
  });

  it("removes its listeners and timer once it resolves or times out, and close() rejects what still waits", async () => {
    const receiver = await useReceiver(200);
    const { paysim, waits, listeners } = await instanceWithWaits({ forwardTo: receiver.url });
    const idle = listeners();

    const event = waits.events.waitFor({ type: "payment_intent.created" });
    const delivery = waits.webhooks.waitFor({ type: "payment_intent.created" });
    expect(listeners()).not.toEqual(idle);
    await paysim.api("POST", "/v1/payment_intents", { body: { amount: 700 }, idempotencyKey: freshKey() });
    await event;
    await delivery;
    expect(listeners()).toEqual(idle);

    await expect(waits.events.waitFor({ type: "payout.created" }, { timeout: 1 })).rejects.toThrow(PaysimTimeoutError);
    await expect(waits.webhooks.waitFor({ type: "payout.created" }, { timeout: 1 })).rejects.toThrow(PaysimTimeoutError);
    expect(listeners()).toEqual(idle);

    const stranded = waits.events.waitFor({ type: "payout.created" }, { timeout: 60_000 });
    waits.close();
    await expect(stranded).rejects.toThrow("paysim closed while a wait was running.");
    // Its ear for resets went too: nothing of the waits listens any more.
    expect(listeners()).toEqual(idle.map((count, i) => (i === 3 ? count - 1 : count)));
    await expect(waits.events.waitFor({})).rejects.toThrow("paysim is closed");
  });
});

describe("the events of a file database's earlier runs", () => {
  it("are not this run's; after a reset deleted the newest rows, new events (numbered from below) are found", async () => {
    const db = useTempPath();
    const first = await startPaysim({ db, secretKey: "sk_test_earlier_runs_0001" });
    for (let i = 0; i < 3; i++) await api(first, "POST", "/v1/payment_intents", { amount: 100 + i });
    await first.close();

    const second = await start({ db, secretKey: "sk_test_earlier_runs_0001" });
    expect(await second.events.list()).toEqual([]);
    // The reset deletes every row, so SQLite numbers the next event 1 again.
    expect((await api(second, "POST", "/v1/sandbox/reset")).status).toBe(200);
    const created = await api(second, "POST", "/v1/payment_intents", { amount: 4242 });
    const event = await second.events.waitFor({ objectId: created.body.id }, { timeout: 1000 });
    expect(event.type).toBe("payment_intent.created");
    expect((await second.events.list()).map((e) => e.id)).toEqual([event.id]);
    const overHttp = await callApi(second.url, second.secretKey, "GET", `/v1/sandbox/events/wait?object_id=${created.body.id}&timeout_ms=1000`);
    expect(overHttp.status).toBe(200);
  });
});

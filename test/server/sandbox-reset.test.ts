import { describe, expect, it } from "vitest";
import type { DeliveryAttempted } from "../../src/bus.js";
import { usePaysim, usePaysimApp, useReceiver } from "../helpers/disposables.js";
import { expectApiError } from "../helpers/errors.js";
import { createIntent, freshKey, type TestPaysim, rowCount } from "../helpers/paysim.js";
import { resetCounts } from "../helpers/registry.js";
import { advance, createEndpoint, deliveryUpdated, emitCreatedEvent, eventWithDeliveries, settle, useFrozenPaysim } from "../webhooks/support.js";

const KEY_A = "sk_test_reset_a_0001";
const KEY_B = "sk_test_reset_b_0001";
const TWO_COMPANIES = {
  companies: [
    { name: "A", currency: "EUR", secret_key: KEY_A, webhook_endpoints: [] },
    { name: "B", currency: "EUR", secret_key: KEY_B, webhook_endpoints: [] },
  ],
};
const PAYOUT = { amount: 5000, currency: "EUR", destination_type: "card", destination_token: "tok_card_visa" };

const reset = (paysim: Pick<TestPaysim, "api">, key = KEY_A) => paysim.api("POST", "/v1/sandbox/reset", { key });
const listIds = async (paysim: Pick<TestPaysim, "api">, path: string, key: string) => {
  const response = await paysim.api("GET", `${path}?limit=100`, { key });
  expect(response.status, response.text).toBe(200);
  return (response.body.data as { id: string }[]).map((object) => object.id);
};
async function createPayout(paysim: Pick<TestPaysim, "api">, key: string) {
  const response = await paysim.api("POST", "/v1/payouts", { body: PAYOUT, idempotencyKey: freshKey(), key });
  expect(response.status, response.text).toBe(201);
  return response.body;
}

describe("POST /v1/sandbox/reset", () => {
  it("deletes that company's intents, payouts and events, answers the counts, and leaves the other company untouched", async () => {
    const paysim = await usePaysimApp({ config: TWO_COMPANIES, payouts: "manual" });
    await createIntent(paysim, { amount: 1000 }, KEY_A);
    await createIntent(paysim, { amount: 2000 }, KEY_A);
    await createPayout(paysim, KEY_A);
    const intentB = await createIntent(paysim, { amount: 3000 }, KEY_B);
    const payoutB = await createPayout(paysim, KEY_B);
    const eventsB = await listIds(paysim, "/v1/events", KEY_B);

    const response = await reset(paysim);
    expect(response.status, response.text).toBe(200);
    expect(Object.keys(response.body).sort()).toEqual(["deleted", "object", "request_id"]);
    expect(response.body).toMatchObject({ object: "reset", deleted: resetCounts({ payment_intents: 2, payouts: 1, events: 3 }) });
    expect(response.body.request_id).toMatch(/^req_/);

    expect(await listIds(paysim, "/v1/payment_intents", KEY_A)).toEqual([]);
    expect(await listIds(paysim, "/v1/payouts", KEY_A)).toEqual([]);
    expect(await listIds(paysim, "/v1/events", KEY_A)).toEqual([]);
    expect(await listIds(paysim, "/v1/payment_intents", KEY_B)).toEqual([intentB.id]);
    expect(await listIds(paysim, "/v1/payouts", KEY_B)).toEqual([payoutB.id]);
    expect(await listIds(paysim, "/v1/events", KEY_B)).toEqual(eventsB);

    // A second reset finds nothing left.
    expect((await reset(paysim)).body.deleted).toEqual(resetCounts());
  });

  it("announces the reset on the bus once committed, naming the company and the counts", async () => {
    const paysim = await usePaysimApp({ config: TWO_COMPANIES });
    await createIntent(paysim, { amount: 1000 }, KEY_A);
    const heard: unknown[] = [];
    paysim.bus.on("sandbox.reset", (reset) => heard.push(reset));
    await reset(paysim);
    const companyA = paysim.companies.find((company) => company.secretKey === KEY_A)!;
    expect(heard).toEqual([{ companyId: companyA.company.id, deleted: resetCounts({ payment_intents: 1, events: 1 }) }]);
    paysim.reset();
    expect(heard[1]).toEqual({ companyId: null, deleted: resetCounts() });
  });

  it("forgets the company's idempotency records: a key used before may carry a new body", async () => {
    const paysim = await usePaysimApp({ config: TWO_COMPANIES });
    const key = freshKey();
    const first = await paysim.api("POST", "/v1/payment_intents", { body: { amount: 1000 }, idempotencyKey: key, key: KEY_A });
    expect(first.status).toBe(201);
    const other = await paysim.api("POST", "/v1/payment_intents", { body: { amount: 1000 }, idempotencyKey: key, key: KEY_B });
    expect((await reset(paysim)).status).toBe(200);
    const again = await paysim.api("POST", "/v1/payment_intents", { body: { amount: 4200 }, idempotencyKey: key, key: KEY_A });
    expect(again.status, again.text).toBe(201);
    expect(again.body.id).not.toBe(first.body.id);
    // B's record stays: the same key and body replay B's answer.
    const replayB = await paysim.api("POST", "/v1/payment_intents", { body: { amount: 1000 }, idempotencyKey: key, key: KEY_B });
    expect(replayB.body.id).toBe(other.body.id);
  });

  it("keeps keys, endpoints with their secrets, and the clock", async () => {
    const paysim = await useFrozenPaysim({ config: TWO_COMPANIES });
    const receiver = await useReceiver(200);
    const endpoint = await createEndpoint(paysim, receiver.url, undefined, KEY_A);
    await advance(paysim, 3600, KEY_A);
    const clockBefore = (await paysim.api("GET", "/v1/sandbox/clock", { key: KEY_A })).body;
    await emitCreatedEvent(paysim, KEY_A);
    await settle(paysim);

    expect((await reset(paysim)).status).toBe(200);

    const clockAfter = (await paysim.api("GET", "/v1/sandbox/clock", { key: KEY_A })).body;
    expect(clockAfter.offset_seconds).toBe(clockBefore.offset_seconds);
    const endpoints = (await paysim.api("GET", "/v1/webhook_endpoints", { key: KEY_A })).body.data;
    expect(endpoints.map((e: any) => [e.id, e.secret])).toEqual([[endpoint.id, endpoint.secret]]);
    // The kept endpoint still gets the events made after the reset.
    const { eventId } = await emitCreatedEvent(paysim, KEY_A);
    await settle(paysim);
    const [delivery] = (await eventWithDeliveries(paysim, eventId, KEY_A)).deliveries;
    expect(delivery).toMatchObject({ status: "succeeded", url: receiver.url });
    expect(receiver.requests).toHaveLength(2);
  });

  it("under concurrent creations: only that company's rows go, and the counts add up to what was acknowledged", async () => {
    const paysim = await usePaysim({ config: TWO_COMPANIES, payouts: "manual" });
    for (let i = 0; i < 10; i++) await createIntent(paysim, { amount: 100 + i }, KEY_A);
    const create = (key: string) => paysim.api("POST", "/v1/payment_intents", { body: { amount: 500 }, idempotencyKey: freshKey(), key });
    const burstA = Array.from({ length: 30 }, () => create(KEY_A));
    const burstB = Array.from({ length: 30 }, () => create(KEY_B));
    const resetting = reset(paysim);
    const later = Array.from({ length: 10 }, () => create(KEY_A));
    const answers = await Promise.all([...burstA, ...burstB, ...later]);
    const response = await resetting;
    expect(response.status, response.text).toBe(200);
    expect(answers.every((answer) => answer.status === 201)).toBe(true);

    const remainingA = await listIds(paysim, "/v1/payment_intents", KEY_A);
    expect(response.body.deleted.payment_intents + remainingA.length).toBe(10 + 30 + 10);
    expect(response.body.deleted.events).toBe(response.body.deleted.payment_intents);
    // Every intent of A that is left was acknowledged, and none of B's went.
    const acknowledgedA = new Set([...answers.slice(0, 30), ...answers.slice(60)].map((answer) => answer.body.id));
    for (const id of remainingA) expect(acknowledgedA.has(id)).toBe(true);
    const idsB = answers
      .slice(30, 60)
      .map((answer) => answer.body.id)
      .sort();
    expect((await listIds(paysim, "/v1/payment_intents", KEY_B)).sort()).toEqual(idsB);
    expect(await listIds(paysim, "/v1/events", KEY_B)).toHaveLength(30);
  });

  it("abandons an attempt in flight: its outcome is never written, even over an attempt made after the reset", async () => {
    const errors: unknown[] = [];
    const paysim = await useFrozenPaysim({ config: TWO_COMPANIES, webhookTimeout: 600_000, onInternalError: (_id, error) => errors.push(error) });
    const receiver = await useReceiver(200);
    receiver.queue("hang");
    await createEndpoint(paysim, receiver.url, undefined, KEY_A);
    await emitCreatedEvent(paysim, KEY_A);
    await receiver.waitForRequests(1);
    expect(receiver.hangingCount()).toBe(1);
    const announced: DeliveryAttempted[] = [];
    paysim.bus.on("delivery.attempted", (update) => announced.push(update));

    expect((await reset(paysim)).body.deleted).toMatchObject({ payment_intents: 1, events: 1 });
    expect(rowCount(paysim, "deliveries")).toBe(0);
    expect(rowCount(paysim, "delivery_attempts")).toBe(0);

    // A delivery made after the reset, whose attempt may reuse the abandoned attempt's row number.
    const succeeded = deliveryUpdated(paysim, (update) => update.status === "succeeded");
    const { eventId } = await emitCreatedEvent(paysim, KEY_A);
    const fresh = await succeeded;
    expect(fresh.eventId).toBe(eventId);

    receiver.release(500);
    await settle(paysim);
    expect(announced.map((update) => update.eventId)).toEqual([eventId]);
    const [delivery] = (await eventWithDeliveries(paysim, eventId, KEY_A)).deliveries;
    expect(delivery.attempts.map((attempt: any) => attempt.status_code)).toEqual([200]);
    expect(rowCount(paysim, "deliveries")).toBe(1);
    expect(rowCount(paysim, "delivery_attempts")).toBe(1);
    expect(rowCount(paysim, "jobs")).toBe(0);
    expect(errors).toEqual([]);
    // No retry of the abandoned delivery ever goes out.
    await advance(paysim, 2 * 86_400, KEY_A);
    expect(receiver.requests).toHaveLength(2);
  });

  it("cancels scheduled payout moves and webhook retries: advancing the clock afterwards does nothing", async () => {
    const paysim = await useFrozenPaysim({ config: TWO_COMPANIES, payouts: "auto" });
    const receiver = await useReceiver(500);
    await createEndpoint(paysim, receiver.url, undefined, KEY_A);
    await createPayout(paysim, KEY_A);
    await settle(paysim);
    const requestsBefore = receiver.requests.length;
    expect(requestsBefore).toBeGreaterThan(0);
    expect(rowCount(paysim, "jobs")).toBeGreaterThan(0);

    expect((await reset(paysim)).body.deleted).toMatchObject({ payouts: 1 });
    expect(rowCount(paysim, "jobs")).toBe(0);

    await advance(paysim, 2 * 86_400, KEY_A);
    expect(receiver.requests).toHaveLength(requestsBefore);
    expect(await listIds(paysim, "/v1/events", KEY_A)).toEqual([]);
    expect(await listIds(paysim, "/v1/payouts", KEY_A)).toEqual([]);
  });

  it("refuses a body with the unknown-field error and writes nothing", async () => {
    const paysim = await usePaysimApp({ config: TWO_COMPANIES });
    await createIntent(paysim, { amount: 1000 }, KEY_A);
    const response = await paysim.api("POST", "/v1/sandbox/reset", { body: { company: "all" }, key: KEY_A });
    expectApiError(response, 400, "invalid_request", "company");
    expect(await listIds(paysim, "/v1/payment_intents", KEY_A)).toHaveLength(1);
  });

  it("answers 405 to another method and 401 without a key", async () => {
    const paysim = await usePaysimApp({ config: TWO_COMPANIES });
    expectApiError(await paysim.api("GET", "/v1/sandbox/reset", { key: KEY_A }), 405, "method_not_allowed");
    expectApiError(await paysim.api("DELETE", "/v1/sandbox/reset", { key: KEY_A }), 405, "method_not_allowed");
    expect((await paysim.api("POST", "/v1/sandbox/reset", { key: null })).status).toBe(401);
  });
});

import { beforeAll, describe, expect, it } from "vitest";
import { suiteScope, usePaysimApp } from "../helpers/disposables.js";
import { expectApiError } from "../helpers/errors.js";
import { createIntent, eventsSince, newestEventId, type TestPaysim } from "../helpers/paysim.js";

const thisFile = suiteScope();
let paysim: TestPaysim;
beforeAll(async () => {
  paysim = await usePaysimApp({}, thisFile);
});

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** Asserts the docs/webhooks.md event shape for a payment intent snapshot. */
function expectEventShape(event: any, type: string, requestId: string, intent: any) {
  expect(Object.keys(event).sort()).toEqual(["created_at", "data", "id", "object", "request_id", "type"]);
  expect(event.id).toMatch(/^evt_[0-9A-Za-z]{24}$/);
  expect(event.object).toBe("event");
  expect(event.type).toBe(type);
  expect(event.created_at).toMatch(ISO_MS);
  expect(event.request_id).toBe(requestId);
  expect(event.data).toMatchObject({
    id: intent.id,
    object: "payment_intent",
    reference: intent.reference,
    amount: intent.amount,
    currency: intent.currency,
    state: intent.state,
    card: intent.card,
  });
  expect(event.data.request_id).toBeUndefined();
}

describe("events written by payment intent changes", () => {
  it("writes payment_intent.created with the creating request's id and a snapshot of the intent", async () => {
    const before = await newestEventId(paysim);
    const intent = await createIntent(paysim, { amount: 4321, currency: "USD", description: "shape" });
    const events = await eventsSince(paysim, before);
    expect(events).toHaveLength(1);
    expectEventShape(events[0], "payment_intent.created", intent.request_id, intent);
    expect(events[0].data.card).toBeNull();
    expect(events[0].data.description).toBe("shape");
  });

  it("writes one event per change, each naming the request that caused it, with the state at that moment", async () => {
    const intent = await createIntent(paysim, { amount: 1000, capture_method: "manual" });
    const before = await newestEventId(paysim);
    const authorized = await paysim.api("POST", `/v1/payment_intents/${intent.id}/authorize`, { body: { payment_method: "pm_card_mastercard" } });
    const captured = await paysim.api("POST", `/v1/payment_intents/${intent.id}/capture`);
    const events = await eventsSince(paysim, before);
    expect(events).toHaveLength(2);
    expectEventShape(events[0], "payment_intent.authorized", authorized.body.request_id, authorized.body);
    expectEventShape(events[1], "payment_intent.captured", captured.body.request_id, captured.body);
    expect(events[0].data.card).toEqual({ last4: "4444", brand: "mastercard" });
  });

  it.each([
    ["canceled", "cancel", undefined],
    ["failed", "authorize", { payment_method: "pm_card_declined" }],
  ] as const)("writes payment_intent.%s", async (state, call, body) => {
    const intent = await createIntent(paysim, { amount: 1000 });
    const before = await newestEventId(paysim);
    const moved = await paysim.api("POST", `/v1/payment_intents/${intent.id}/${call}`, { body });
    const events = await eventsSince(paysim, before);
    expect(events).toHaveLength(1);
    expectEventShape(events[0], `payment_intent.${state}`, moved.body.request_id, moved.body);
  });

  it("masks card data in the snapshot", async () => {
    const before = await newestEventId(paysim);
    await createIntent(paysim, { amount: 1000, description: "PAN 4242 4242 4242 4242 here" });
    const [event] = await eventsSince(paysim, before);
    expect(event.data.description).toBe("PAN **** **** **** 4242 here");
  });

  it("keeps the event as it was when the intent later changes", async () => {
    const intent = await createIntent(paysim, { amount: 1000 });
    const [created] = (await eventsSince(paysim, undefined)).filter((e) => e.data.id === intent.id);
    await paysim.api("POST", `/v1/payment_intents/${intent.id}/cancel`);
    const again = await paysim.api("GET", `/v1/events/${created.id}`);
    expect(again.body.data.state).toBe("created");
  });
});

describe("GET /v1/events", () => {
  const thisSuite = suiteScope();
  let listed: TestPaysim;
  /** Types in emission order, oldest first. */
  const emitted: { id?: string; type: string }[] = [];

  beforeAll(async () => {
    listed = await usePaysimApp({}, thisSuite);
    for (let i = 0; i < 6; i++) {
      const intent = await createIntent(listed, { amount: 100 + i, capture_method: "manual" });
      emitted.push({ type: "payment_intent.created" });
      if (i % 2 === 0) {
        await listed.api("POST", `/v1/payment_intents/${intent.id}/authorize`);
        emitted.push({ type: "payment_intent.authorized" });
      } else {
        await listed.api("POST", `/v1/payment_intents/${intent.id}/cancel`);
        emitted.push({ type: "payment_intent.canceled" });
      }
    }
    const all = await eventsSince(listed, undefined);
    all.forEach((event, i) => (emitted[i]!.id = event.id));
  });

  const newestFirst = () => [...emitted].reverse();

  it("lists the 10 newest events, newest first, in the list envelope", async () => {
    const response = await listed.api("GET", "/v1/events");
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ object: "list", has_more: true, request_id: response.headers.get("request-id") });
    expect(response.body.data.map((e: any) => e.type)).toEqual(
      newestFirst()
        .slice(0, 10)
        .map((e) => e.type),
    );
    expect(emitted).toHaveLength(12);
  });

  it("walks every page with starting_after", async () => {
    const seen: string[] = [];
    let cursor = "";
    for (let page = 0; page < 10; page++) {
      const response = await listed.api("GET", `/v1/events?limit=5${cursor}`);
      seen.push(...response.body.data.map((e: any) => e.id));
      if (!response.body.has_more) break;
      cursor = `&starting_after=${response.body.data.at(-1).id}`;
    }
    expect(seen).toEqual(newestFirst().map((e) => e.id));
  });

  it.each(["payment_intent.created", "payment_intent.authorized", "payment_intent.canceled", "payment_intent.captured"])("filters on type=%s", async (type) => {
    const response = await listed.api("GET", `/v1/events?type=${type}&limit=100`);
    expect(response.body.data.map((e: any) => e.id)).toEqual(
      newestFirst()
        .filter((e) => e.type === type)
        .map((e) => e.id),
    );
    expect(response.body.has_more).toBe(false);
  });

  it("combines the type filter with the cursor", async () => {
    const created = newestFirst().filter((e) => e.type === "payment_intent.created");
    const response = await listed.api("GET", `/v1/events?type=payment_intent.created&limit=2&starting_after=${created[1]!.id}`);
    expect(response.body.data.map((e: any) => e.id)).toEqual(created.slice(2, 4).map((e) => e.id));
    expect(response.body.has_more).toBe(true);
  });

  it.each([
    ["type=payment_intent.refunded", "type"],
    ["type=*", "type"],
    ["type=", "type"],
    ["limit=0", "limit"],
    ["limit=101", "limit"],
    ["limit=abc", "limit"],
    ["state=created", "state"],
    ["starting_after=evt_ZZZZZZZZZZZZZZZZZZZZZZZZ", "starting_after"],
  ])("refuses ?%s with 400 naming %s", async (query, param) => {
    expectApiError(await listed.api("GET", `/v1/events?${query}`), 400, "invalid_request", param);
  });

  it("refuses a payment intent id as an events cursor", async () => {
    const intent = (await listed.api("GET", "/v1/payment_intents?limit=1")).body.data[0];
    expectApiError(await listed.api("GET", `/v1/events?starting_after=${intent.id}`), 400, "invalid_request", "starting_after");
  });
});

describe("GET /v1/events/:id", () => {
  it("answers the event as listed, with its deliveries", async () => {
    const intent = await createIntent(paysim, { amount: 55 });
    const listed = (await paysim.api("GET", "/v1/events?limit=1")).body.data[0];
    expect(listed.data.id).toBe(intent.id);
    const response = await paysim.api("GET", `/v1/events/${listed.id}`);
    expect(response.status).toBe(200);
    const { deliveries, ...event } = response.body;
    expect(event).toEqual(listed);
    expect(Array.isArray(deliveries)).toBe(true);
  });

  it("keeps the event's own request_id (the request that caused it); the Request-Id header names the read", async () => {
    const intent = await createIntent(paysim, { amount: 56 });
    const listed = (await paysim.api("GET", "/v1/events?limit=1")).body.data[0];
    const response = await paysim.api("GET", `/v1/events/${listed.id}`);
    expect(response.body.request_id).toBe(intent.request_id);
    expect(response.headers.get("request-id")).toMatch(/^req_/);
    expect(response.headers.get("request-id")).not.toBe(intent.request_id);
  });

  it.each(["evt_ZZZZZZZZZZZZZZZZZZZZZZZZ", "evt_short", "pi_ZZZZZZZZZZZZZZZZZZZZZZZZ"])("answers 404 not_found for %s", async (id) => {
    const response = await paysim.api("GET", `/v1/events/${id}`);
    expectApiError(response, 404, "not_found");
    expect(response.body.error.message).toContain(id);
  });
});

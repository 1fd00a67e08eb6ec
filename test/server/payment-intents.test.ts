import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshKey, startTestPaysim, type TestPaysim } from "../helpers/paysim.js";

let paysim: TestPaysim;
beforeAll(async () => {
  paysim = await startTestPaysim();
});
afterAll(async () => {
  await paysim.dispose();
});

async function createIntent(body: object = { amount: 1000 }) {
  const response = await paysim.api("POST", "/v1/payment_intents", { body, idempotencyKey: freshKey() });
  expect(response.status).toBe(201);
  return response.body;
}

describe("POST /v1/payment_intents", () => {
  it("creates an intent in state created with its checkout URL and the company currency", async () => {
    const response = await paysim.api("POST", "/v1/payment_intents", { body: { amount: 1000, description: "Order 42" }, idempotencyKey: freshKey() });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      object: "payment_intent",
      amount: 1000,
      currency: "EUR",
      description: "Order 42",
      capture_method: "automatic",
      state: "created",
      card: null,
      failure_reason: null,
    });
    expect(response.body.id).toMatch(/^pi_[0-9A-Za-z]{24}$/);
    expect(response.body.reference).toMatch(/^PAY-[0-9A-Z]{10}$/);
    expect(response.body.checkout_url).toBe(`${paysim.url}/checkout/${response.body.id}`);
    expect(response.body.request_id).toMatch(/^req_[0-9A-Za-z]{24}$/);
    expect(response.headers.get("request-id")).toBe(response.body.request_id);
  });
});

describe("payment intent transitions over HTTP", () => {
  it("authorizes then captures a manual intent, emitting each event", async () => {
    const intent = await createIntent({ amount: 2500, capture_method: "manual" });
    const authorized = await paysim.api("POST", `/v1/payment_intents/${intent.id}/authorize`, { body: { payment_method: "pm_card_mastercard" } });
    expect(authorized.status).toBe(200);
    expect(authorized.body).toMatchObject({ state: "authorized", card: { last4: "4444", brand: "mastercard" } });
    const captured = await paysim.api("POST", `/v1/payment_intents/${intent.id}/capture`);
    expect(captured.body.state).toBe("captured");
    const events = await paysim.api("GET", `/v1/events?limit=3`);
    expect(events.body.data.map((e: any) => e.type)).toEqual([
      "payment_intent.captured",
      "payment_intent.authorized",
      "payment_intent.created",
    ]);
  });

  it("captures at once on authorize when the capture method is automatic", async () => {
    const intent = await createIntent();
    const response = await paysim.api("POST", `/v1/payment_intents/${intent.id}/authorize`);
    expect(response.body).toMatchObject({ state: "captured", card: { last4: "4242", brand: "visa" } });
  });

  it("refuses to capture a created intent, changing nothing and emitting nothing", async () => {
    const intent = await createIntent({ amount: 700, capture_method: "manual" });
    const before = await paysim.api("GET", "/v1/events?limit=1");
    const response = await paysim.api("POST", `/v1/payment_intents/${intent.id}/capture`);
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe("invalid_request");
    expect((await paysim.api("GET", `/v1/payment_intents/${intent.id}`)).body.state).toBe("created");
    const after = await paysim.api("GET", "/v1/events?limit=1");
    expect(after.body.data[0].id).toBe(before.body.data[0].id);
  });
});

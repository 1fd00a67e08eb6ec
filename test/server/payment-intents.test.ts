import { beforeAll, describe, expect, it } from "vitest";
import { suiteScope, usePaysimApp } from "../helpers/disposables.js";
import { expectApiError } from "../helpers/errors.js";
import { createIntent, freshKey, type TestPaysim } from "../helpers/paysim.js";

const thisFile = suiteScope();
let paysim: TestPaysim;
beforeAll(async () => {
  paysim = await usePaysimApp({}, thisFile);
});

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe("POST /v1/payment_intents", () => {
  it("creates an intent in state created with its checkout URL and the company currency", async () => {
    const response = await paysim.api("POST", "/v1/payment_intents", { body: { amount: 1000, description: "Order 42" }, idempotencyKey: freshKey() });
    expect(response.status).toBe(201);
    expect(Object.keys(response.body).sort()).toEqual(
      [
        "id",
        "object",
        "reference",
        "amount",
        "currency",
        "description",
        "capture_method",
        "state",
        "card",
        "failure_reason",
        "checkout_url",
        "created_at",
        "updated_at",
        "request_id",
      ].sort(),
    );
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
    expect(response.body.created_at).toMatch(ISO_MS);
    expect(response.body.updated_at).toBe(response.body.created_at);
    expect(response.body.request_id).toMatch(/^req_[0-9A-Za-z]{24}$/);
    expect(response.headers.get("request-id")).toBe(response.body.request_id);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
  });

  it("takes the currency and capture method given", async () => {
    const intent = await createIntent(paysim, { amount: 5000, currency: "USD", capture_method: "manual" });
    expect(intent).toMatchObject({ amount: 5000, currency: "USD", capture_method: "manual", description: null });
  });

  it("gives every intent its own id and reference", async () => {
    const intents = await Promise.all(Array.from({ length: 10 }, () => createIntent(paysim)));
    expect(new Set(intents.map((pi) => pi.id)).size).toBe(10);
    expect(new Set(intents.map((pi) => pi.reference)).size).toBe(10);
  });

  it("takes the timestamps from the virtual clock", async () => {
    const before = (await paysim.api("GET", "/v1/sandbox/clock")).body.now;
    const intent = await createIntent(paysim);
    const after = (await paysim.api("GET", "/v1/sandbox/clock")).body.now;
    expect(Date.parse(intent.created_at)).toBeGreaterThanOrEqual(Date.parse(before));
    expect(Date.parse(intent.created_at)).toBeLessThanOrEqual(Date.parse(after));
  });
});

describe("GET /v1/payment_intents/:id", () => {
  it("reads back what the creation answered, with its own request id", async () => {
    const intent = await createIntent(paysim, { amount: 777, description: "read me" });
    const response = await paysim.api("GET", `/v1/payment_intents/${intent.id}`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ ...intent, request_id: response.headers.get("request-id") });
    expect(response.body.request_id).not.toBe(intent.request_id);
  });

  it.each(["pi_ZZZZZZZZZZZZZZZZZZZZZZZZ", "pi_nope", "evt_ZZZZZZZZZZZZZZZZZZZZZZZZ", "x"])("answers 404 not_found for the unknown id %s", async (id) => {
    const response = await paysim.api("GET", `/v1/payment_intents/${id}`);
    expectApiError(response, 404, "not_found");
    expect(response.body.error.message).toBe(`No such payment intent: "${id}".`);
  });
});

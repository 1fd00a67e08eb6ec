import { beforeAll, describe, expect, it } from "vitest";
import { suiteScope, usePaysimApp } from "../helpers/disposables.js";
import { expectApiError } from "../helpers/errors.js";
import { freshKey, newestEventId, type TestPaysim } from "../helpers/paysim.js";

const thisFile = suiteScope();
let paysim: TestPaysim;
beforeAll(async () => {
  paysim = await usePaysimApp({}, thisFile);
});

const create = (body: unknown, idempotencyKey = freshKey()) => paysim.api("POST", "/v1/payment_intents", { body, idempotencyKey });
const newestIntentId = async () => (await paysim.api("GET", "/v1/payment_intents?limit=1")).body.data[0]?.id as string | undefined;

describe("POST /v1/payment_intents refuses each invalid field with its param", () => {
  it.each([
    ["amount zero", { amount: 0 }, "amount"],
    ["amount negative", { amount: -100 }, "amount"],
    ["amount a float", { amount: 10.5 }, "amount"],
    ["amount a string", { amount: "1000" }, "amount"],
    ["amount a boolean", { amount: true }, "amount"],
    ["amount null", { amount: null }, "amount"],
    ["amount over 999999999999", { amount: 1_000_000_000_000 }, "amount"],
    ["amount far too large", { amount: 1e20 }, "amount"],
    ["amount an object", { amount: { value: 1000 } }, "amount"],
    ["amount missing", {}, "amount"],
    ["amount missing with other fields", { currency: "EUR", description: "x" }, "amount"],
    ["currency lower-case", { amount: 1000, currency: "eur" }, "currency"],
    ["currency unknown", { amount: 1000, currency: "XYZ" }, "currency"],
    ["currency a number", { amount: 1000, currency: 978 }, "currency"],
    ["currency null", { amount: 1000, currency: null }, "currency"],
    ["currency too long", { amount: 1000, currency: "EURO" }, "currency"],
    ["description over 1000 characters", { amount: 1000, description: "x".repeat(1001) }, "description"],
    ["description a number", { amount: 1000, description: 42 }, "description"],
    ["description an array", { amount: 1000, description: ["a"] }, "description"],
    ["capture_method unknown", { amount: 1000, capture_method: "later" }, "capture_method"],
    ["capture_method wrong case", { amount: 1000, capture_method: "Manual" }, "capture_method"],
    ["capture_method a boolean", { amount: 1000, capture_method: true }, "capture_method"],
    ["an unknown field", { amount: 1000, colour: "red" }, "colour"],
    ["a misspelt field (reported before the missing amount)", { amout: 1000 }, "amout"],
    ["a cvv field", { amount: 1000, cvv: "123" }, "cvv"],
    ["a status field (read-only)", { amount: 1000, state: "captured" }, "state"],
  ])("%s → 400 invalid_request, param %s; nothing created", async (_name, body, param) => {
    const beforeIntent = await newestIntentId();
    const beforeEvent = await newestEventId(paysim);
    const response = await create(body);
    expectApiError(response, 400, "invalid_request", param);
    expect(await newestIntentId()).toBe(beforeIntent);
    expect(await newestEventId(paysim)).toBe(beforeEvent);
  });

  it("says what to send instead", async () => {
    const response = await create({ amount: 10.5 });
    expect(response.body.error.message).toMatch(/integer/);
    const missing = await create({});
    expect(missing.body.error.message).toMatch(/amount is required/);
    const currency = await create({ amount: 1, currency: "eur" });
    expect(currency.body.error.message).toMatch(/upper-case/);
  });

  it("does not burn the Idempotency-Key of a refused request: the same key then creates", async () => {
    const key = freshKey();
    expectApiError(await create({ amount: 0 }, key), 400, "invalid_request", "amount");
    const response = await create({ amount: 1000 }, key);
    expect(response.status).toBe(201);
    expect(response.headers.get("idempotent-replayed")).toBeNull();
  });
});

describe("POST /v1/payment_intents accepts the edges of each rule", () => {
  it.each([
    ["the smallest amount", { amount: 1 }, { amount: 1 }],
    ["the largest amount", { amount: 999_999_999_999 }, { amount: 999_999_999_999 }],
    ["a zero-decimal currency", { amount: 500, currency: "JPY" }, { currency: "JPY" }],
    ["a three-decimal currency", { amount: 500, currency: "KWD" }, { currency: "KWD" }],
    ["a description of exactly 1000 characters", { amount: 1, description: "d".repeat(1000) }, { description: "d".repeat(1000) }],
    ["an empty description", { amount: 1, description: "" }, { description: "" }],
    ["capture_method manual", { amount: 1, capture_method: "manual" }, { capture_method: "manual" }],
    ["capture_method automatic", { amount: 1, capture_method: "automatic" }, { capture_method: "automatic" }],
  ])("%s", async (_name, body, expected) => {
    const response = await create(body);
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject(expected);
  });

  it("defaults currency to the company's, capture_method to automatic, description to null", async () => {
    const response = await create({ amount: 1 });
    expect(response.body).toMatchObject({ currency: "EUR", capture_method: "automatic", description: null });
  });
});

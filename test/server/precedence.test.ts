import { beforeAll, describe, expect, it } from "vitest";
import { suiteScope, usePaysim } from "../helpers/disposables.js";
import { expectApiError } from "../helpers/errors.js";
import { rawRequest } from "../helpers/http.js";
import { createIntent, freshKey, type TestPaysim } from "../helpers/paysim.js";

/**
 * docs/api.md: when several errors apply, the first of 403 Host → 401 key → 404/405 route →
 * 413 size → 400 content type or JSON → 400 Idempotency-Key → 409 conflict (or the replay) →
 * 404 unknown object → 400 field validation → 400 refused transition wins.
 */
const thisFile = suiteScope();
let paysim: TestPaysim;
beforeAll(async () => {
  paysim = await usePaysim({}, thisFile);
});

const auth = () => ({ Authorization: `Bearer ${paysim.secretKey}` });
const huge = JSON.stringify({ amount: 1, description: "z".repeat(100 * 1024) });
const UNKNOWN_PI = "pi_ZZZZZZZZZZZZZZZZZZZZZZZZ";

describe("error precedence", () => {
  it("403 Host beats 401, 413 and a bad body", async () => {
    const response = await rawRequest(paysim.url, {
      method: "POST",
      path: "/v1/payment_intents",
      headers: { Host: "evil.example", "Content-Type": "text/plain" },
      body: huge,
    });
    expectApiError(response, 403, "forbidden");
  });

  it("401 beats a bad body and a missing Idempotency-Key", async () => {
    const response = await rawRequest(paysim.url, {
      method: "POST",
      path: "/v1/payment_intents",
      headers: { "Content-Type": "application/json" },
      body: "{not json",
    });
    expectApiError(response, 401, "unauthorized");
  });

  it("401 beats 413", async () => {
    const response = await rawRequest(paysim.url, { method: "POST", path: "/v1/payment_intents", headers: { "Content-Type": "application/json" }, body: huge });
    expectApiError(response, 401, "unauthorized");
  });

  it("404 and 405 routes beat 413", async () => {
    const unknown = await rawRequest(paysim.url, {
      method: "POST",
      path: "/v1/nowhere",
      headers: { ...auth(), "Content-Type": "application/json" },
      body: huge,
    });
    expectApiError(unknown, 404, "not_found");
    const wrongMethod = await rawRequest(paysim.url, {
      method: "PUT",
      path: "/v1/payment_intents",
      headers: { ...auth(), "Content-Type": "application/json" },
      body: huge,
    });
    expectApiError(wrongMethod, 405, "method_not_allowed");
  });

  it("413 beats a wrong content type", async () => {
    const response = await rawRequest(paysim.url, {
      method: "POST",
      path: "/v1/payment_intents",
      headers: { ...auth(), "Idempotency-Key": freshKey(), "Content-Type": "text/plain" },
      body: huge,
    });
    expectApiError(response, 413, "payload_too_large");
  });

  it("bad JSON beats a missing Idempotency-Key: the 400 is about the JSON", async () => {
    const response = await rawRequest(paysim.url, {
      method: "POST",
      path: "/v1/payment_intents",
      headers: { ...auth(), "Content-Type": "application/json" },
      body: "{bad",
    });
    expectApiError(response, 400, "invalid_request");
    expect(response.body.error.message).toMatch(/JSON/);
    expect(response.body.error.param).toBeUndefined();
  });

  it("a malformed Idempotency-Key beats field validation", async () => {
    const response = await paysim.api("POST", "/v1/payment_intents", { body: { amount: 0, colour: "red" }, idempotencyKey: "k".repeat(300) });
    expectApiError(response, 400, "invalid_request", "Idempotency-Key");
  });

  it("a missing Idempotency-Key beats field validation", async () => {
    const response = await paysim.api("POST", "/v1/payment_intents", { body: { amount: "ten" } });
    expectApiError(response, 400, "invalid_request", "Idempotency-Key");
  });

  it("409 conflict beats field validation: a reused key with an invalid body is a conflict", async () => {
    const key = freshKey();
    await paysim.api("POST", "/v1/payment_intents", { body: { amount: 1000 }, idempotencyKey: key });
    const response = await paysim.api("POST", "/v1/payment_intents", { body: { amount: 0 }, idempotencyKey: key });
    expectApiError(response, 409, "idempotency_conflict");
  });

  it("the replay beats a refused transition: a replayed authorize answers its 200 after the intent moved on", async () => {
    const intent = await createIntent(paysim, { amount: 1000, capture_method: "manual" });
    const key = freshKey();
    const authorized = await paysim.api("POST", `/v1/payment_intents/${intent.id}/authorize`, { idempotencyKey: key });
    await paysim.api("POST", `/v1/payment_intents/${intent.id}/capture`);
    const replay = await paysim.api("POST", `/v1/payment_intents/${intent.id}/authorize`, { idempotencyKey: key });
    expect(replay.status).toBe(200);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.body).toEqual(authorized.body);
    expect(replay.body.state).toBe("authorized");
    expect((await paysim.api("GET", `/v1/payment_intents/${intent.id}`)).body.state).toBe("captured");
  });

  it("a malformed optional Idempotency-Key beats an unknown object", async () => {
    const response = await paysim.api("POST", `/v1/payment_intents/${UNKNOWN_PI}/capture`, { idempotencyKey: "é".repeat(3) });
    expectApiError(response, 400, "invalid_request", "Idempotency-Key");
  });

  it("404 unknown object beats field validation", async () => {
    const badMethod = await paysim.api("POST", `/v1/payment_intents/${UNKNOWN_PI}/authorize`, { body: { payment_method: "pm_nope" } });
    expectApiError(badMethod, 404, "not_found");
    const unknownField = await paysim.api("POST", `/v1/payment_intents/${UNKNOWN_PI}/capture`, { body: { colour: "red" } });
    expectApiError(unknownField, 404, "not_found");
  });

  it("field validation beats a refused transition", async () => {
    const intent = await createIntent(paysim, { amount: 1000, capture_method: "manual" });
    await paysim.api("POST", `/v1/payment_intents/${intent.id}/cancel`);
    const badMethod = await paysim.api("POST", `/v1/payment_intents/${intent.id}/authorize`, { body: { payment_method: "pm_nope" } });
    expectApiError(badMethod, 400, "invalid_request", "payment_method");
    const unknownField = await paysim.api("POST", `/v1/payment_intents/${intent.id}/capture`, { body: { colour: "red" } });
    expectApiError(unknownField, 400, "invalid_request", "colour");
  });
});

import { beforeAll, describe, expect, it } from "vitest";
import { VERSION } from "../../src/version.js";
import { suiteScope, usePaysim } from "../helpers/disposables.js";
import { expectApiError } from "../helpers/errors.js";
import { rawRequest } from "../helpers/http.js";
import type { TestPaysim } from "../helpers/paysim.js";

const thisFile = suiteScope();
let paysim: TestPaysim;
beforeAll(async () => {
  paysim = await usePaysim({}, thisFile);
});

const withAuthorization = (path: string, authorization?: string, method = "GET") =>
  rawRequest(paysim.url, { method, path, headers: authorization === undefined ? {} : { Authorization: authorization } });

describe("Authorization: Bearer on /v1", () => {
  it.each([
    ["no Authorization header", undefined, /No API key/],
    ["a Basic scheme", "Basic x", /Malformed Authorization header/],
    ["the scheme alone", "Bearer", /Malformed Authorization header/],
    ["the scheme and a space", "Bearer ", /Malformed Authorization header/],
    ["two words after Bearer", "Bearer sk_test_a sk_test_b", /Malformed Authorization header/],
    ["a key with no scheme", "sk_test_0123456789abcdef", /Malformed Authorization header/],
    ["an unknown key", "Bearer sk_test_unknown_key_000000", /Unknown API key/],
  ])("answers 401 unauthorized with WWW-Authenticate: Bearer to %s", async (_name, authorization, message) => {
    const response = await withAuthorization("/v1/payment_intents", authorization);
    expectApiError(response, 401, "unauthorized");
    expect(response.headers["www-authenticate"]).toBe("Bearer");
    expect(response.body.error.message).toMatch(message);
  });

  it("never echoes the key it refused", async () => {
    const response = await withAuthorization("/v1/payment_intents", "Bearer sk_test_do_not_echo_me_123");
    expect(response.status).toBe(401);
    expect(response.text).not.toContain("do_not_echo_me");
  });

  it("refuses the key with different case or an extra character", async () => {
    const upper = await withAuthorization("/v1/payment_intents", `Bearer ${paysim.secretKey.toUpperCase()}`);
    expectApiError(upper, 401, "unauthorized");
    const longer = await withAuthorization("/v1/payment_intents", `Bearer ${paysim.secretKey}x`);
    expectApiError(longer, 401, "unauthorized");
  });

  it("accepts the key, whatever the case of the scheme name", async () => {
    for (const scheme of ["Bearer", "bearer", "BEARER"]) {
      const response = await withAuthorization("/v1/payment_intents", `${scheme} ${paysim.secretKey}`);
      expect(response.status, scheme).toBe(200);
    }
  });

  it.each([
    ["GET", "/v1/payment_intents"],
    ["POST", "/v1/payment_intents"],
    ["GET", "/v1/payment_intents/pi_ZZZZZZZZZZZZZZZZZZZZZZZZ"],
    ["POST", "/v1/payment_intents/pi_ZZZZZZZZZZZZZZZZZZZZZZZZ/authorize"],
    ["POST", "/v1/payment_intents/pi_ZZZZZZZZZZZZZZZZZZZZZZZZ/capture"],
    ["POST", "/v1/payment_intents/pi_ZZZZZZZZZZZZZZZZZZZZZZZZ/cancel"],
    ["GET", "/v1/events"],
    ["GET", "/v1/events/evt_ZZZZZZZZZZZZZZZZZZZZZZZZ"],
    ["GET", "/v1/sandbox/clock"],
    ["POST", "/v1/sandbox/clock/advance"],
  ])("guards %s %s", async (method, path) => {
    expectApiError(await withAuthorization(path, undefined, method), 401, "unauthorized");
  });

  it("answers 401 before 404 on an unknown /v1 route", async () => {
    expectApiError(await withAuthorization("/v1/no_such_thing"), 401, "unauthorized");
    expectApiError(await withAuthorization("/v1/no_such_thing", `Bearer ${paysim.secretKey}`), 404, "not_found");
  });

  it("answers 401 before 405 on a known /v1 path with the wrong method", async () => {
    expectApiError(await withAuthorization("/v1/payment_intents", undefined, "DELETE"), 401, "unauthorized");
    expectApiError(await withAuthorization("/v1/payment_intents", `Bearer ${paysim.secretKey}`, "DELETE"), 405, "method_not_allowed");
  });
});

describe("GET /health", () => {
  it.each([
    ["without a key", undefined],
    ["with an unknown key", "Bearer sk_test_unknown_key_000000"],
  ])("answers 200 ok with the version %s", async (_name, authorization) => {
    const response = await withAuthorization("/health", authorization);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: "ok", version: VERSION, request_id: response.headers["request-id"] });
  });
});

describe("no spelling of a /v1 path reaches a route without a key", () => {
  it.each([
    "/%76%31/payment_intents",
    "/v1//payment_intents",
    "/v1/./payment_intents",
    "/v1/payment_intents/",
    "//v1/payment_intents",
    "/V1/payment_intents",
    "/v1%2Fpayment_intents",
    "//v1/sandbox/clock",
  ])("GET %s without a key is refused or unknown, never answered", async (path) => {
    const response = await withAuthorization(path);
    expect([401, 404]).toContain(response.status);
    expect(response.body.error).toBeDefined();
  });
});

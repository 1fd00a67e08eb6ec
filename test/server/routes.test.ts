import { beforeAll, describe, expect, it } from "vitest";
import { suiteScope, usePaysimApp } from "../helpers/disposables.js";
import { expectApiError } from "../helpers/errors.js";
import type { TestPaysim } from "../helpers/paysim.js";

/** What the router answers for unknown routes and wrong methods (docs/api.md), through app.request(). */
const thisFile = suiteScope();
let paysim: TestPaysim;
beforeAll(async () => {
  paysim = await usePaysimApp({}, thisFile);
});

describe("routes and methods", () => {
  it.each(["/v1/unknown", "/v1/payment_intents/pi_ZZZZZZZZZZZZZZZZZZZZZZZZ/refund", "/v1", "/nowhere"])(
    "answers 404 not_found JSON for the unknown route %s",
    async (path) => {
      const response = await paysim.api("GET", path);
      expectApiError(response, 404, "not_found");
      expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    },
  );

  it.each([
    ["DELETE", "/v1/payment_intents", ["GET", "POST"]],
    ["PUT", "/v1/payment_intents", ["GET", "POST"]],
    ["PATCH", "/v1/payment_intents/pi_ZZZZZZZZZZZZZZZZZZZZZZZZ", ["GET"]],
    ["DELETE", "/v1/payment_intents/pi_ZZZZZZZZZZZZZZZZZZZZZZZZ", ["GET"]],
    ["GET", "/v1/payment_intents/pi_ZZZZZZZZZZZZZZZZZZZZZZZZ/capture", ["POST"]],
    ["GET", "/v1/payment_intents/pi_ZZZZZZZZZZZZZZZZZZZZZZZZ/authorize", ["POST"]],
    ["POST", "/v1/events", ["GET"]],
    ["POST", "/health", ["GET"]],
  ])("answers %s %s with 405 and an Allow header listing %j", async (method, path, allowed) => {
    const response = await paysim.api(method, path);
    expectApiError(response, 405, "method_not_allowed");
    const allow = String(response.headers.get("allow")).split(/,\s*/);
    for (const m of allowed) expect(allow).toContain(m);
    expect(allow).not.toContain(method);
  });
});

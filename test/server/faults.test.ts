import { describe, expect, it } from "vitest";
import { hitsMatch } from "../../src/domain/faults.js";
import { usePaysimApp } from "../helpers/disposables.js";
import { expectApiError } from "../helpers/errors.js";
import { createIntent, freshKey, type TestPaysim, creationRows } from "../helpers/paysim.js";

const KEY_A = "sk_test_faults_a_0001";
const KEY_B = "sk_test_faults_b_0001";
const TWO_COMPANIES = {
  companies: [
    { name: "A", currency: "EUR", secret_key: KEY_A, webhook_endpoints: [] },
    { name: "B", currency: "EUR", secret_key: KEY_B, webhook_endpoints: [] },
  ],
};

type Api = Pick<TestPaysim, "api">;

async function addFault(paysim: Api, rule: object, key = KEY_A) {
  const response = await paysim.api("POST", "/v1/sandbox/faults", { body: rule, key });
  expect(response.status, response.text).toBe(201);
  return response.body;
}

async function listFaults(paysim: Api, key = KEY_A): Promise<any[]> {
  const response = await paysim.api("GET", "/v1/sandbox/faults", { key });
  expect(response.status, response.text).toBe(200);
  return response.body.data;
}

const createIntentCall = (paysim: Api, key = KEY_A, idempotencyKey = freshKey()) =>
  paysim.api("POST", "/v1/payment_intents", { body: { amount: 1000 }, idempotencyKey, key });

describe("POST, GET and DELETE /v1/sandbox/faults", () => {
  it("creates a rule with its defaults, lists the company's rules oldest first, and removes one or all", async () => {
    const paysim = await usePaysimApp({ config: TWO_COMPANIES });
    const first = await addFault(paysim, { fault: "server_error" });
    expect(Object.keys(first)).toEqual([
      "id",
      "object",
      "fault",
      "match",
      "times",
      "remaining",
      "probability",
      "latency_ms",
      "retry_after_seconds",
      "created_at",
      "request_id",
    ]);
    expect(first).toMatchObject({
      object: "fault",
      fault: "server_error",
      match: { method: null, path: null },
      times: 1,
      remaining: 1,
      probability: 1,
      latency_ms: null,
      retry_after_seconds: null,
    });
    expect(first.id).toMatch(/^flt_[0-9A-Za-z]{24}$/);
    expect(first.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(Date.parse(first.created_at)).toBeLessThanOrEqual(paysim.clock.now());
    const second = await addFault(paysim, {
      fault: "timeout",
      match: { method: "POST", path: "/v1/payment_intents/*/capture" },
      times: 3,
      probability: 0.5,
      seed: 9,
    });
    expect(second).toMatchObject({
      fault: "timeout",
      match: { method: "POST", path: "/v1/payment_intents/*/capture" },
      times: 3,
      remaining: 3,
      probability: 0.5,
      latency_ms: 30_000,
    });
    const third = await addFault(paysim, { fault: "latency", latency_ms: 250 });

    const list = await paysim.api("GET", "/v1/sandbox/faults", { key: KEY_A });
    expect(list.body).toMatchObject({ object: "list", has_more: false });
    expect(list.body.data.map((rule: any) => rule.id)).toEqual([first.id, second.id, third.id]);
    expect(list.body.data[0]).toEqual({ ...first, request_id: undefined });
    expect(await listFaults(paysim, KEY_B)).toEqual([]);

    const removed = await paysim.api("DELETE", `/v1/sandbox/faults/${second.id}`, { key: KEY_A });
    expect(removed.status, removed.text).toBe(200);
    expect(removed.body).toMatchObject({ id: second.id, object: "fault", deleted: true });
    expect((await listFaults(paysim)).map((rule) => rule.id)).toEqual([first.id, third.id]);

    const cleared = await paysim.api("DELETE", "/v1/sandbox/faults", { key: KEY_A });
    expect(cleared.status, cleared.text).toBe(200);
    expect(cleared.body).toMatchObject({ object: "faults_cleared", deleted: 2 });
    expect(await listFaults(paysim)).toEqual([]);
  });

  it("answers 404 for an unknown rule and for another company's, which stays", async () => {
    const paysim = await usePaysimApp({ config: TWO_COMPANIES });
    const ofB = await addFault(paysim, { fault: "server_error" }, KEY_B);
    expectApiError(await paysim.api("DELETE", `/v1/sandbox/faults/${ofB.id}`, { key: KEY_A }), 404, "not_found");
    expectApiError(await paysim.api("DELETE", "/v1/sandbox/faults/flt_000000000000000000000000", { key: KEY_A }), 404, "not_found");
    expect((await paysim.api("DELETE", "/v1/sandbox/faults", { key: KEY_A })).body.deleted).toBe(0);
    expect((await listFaults(paysim, KEY_B)).map((rule) => rule.id)).toEqual([ofB.id]);
  });

  it.each([
    ["an unknown fault", { fault: "explode" }, "fault"],
    ["a latency without latency_ms", { fault: "latency" }, "latency_ms"],
    ["latency_ms out of range", { fault: "timeout", latency_ms: 60_001 }, "latency_ms"],
    ["times out of range", { fault: "server_error", times: 0 }, "times"],
    ["a probability out of range", { fault: "server_error", probability: 2 }, "probability"],
    ["an unknown field", { fault: "server_error", retries: 1 }, "retries"],
    ["a bad path pattern", { fault: "server_error", match: { path: "payment_intents/*" } }, "match.path"],
    ["a sandbox path", { fault: "server_error", match: { path: "/v1/sandbox/faults" } }, "match.path"],
    ["retry_after_seconds on another fault", { fault: "server_error", retry_after_seconds: 0 }, "retry_after_seconds"],
    ["retry_after_seconds below 0", { fault: "rate_limited", retry_after_seconds: -1 }, "retry_after_seconds"],
    ["retry_after_seconds above 3600", { fault: "rate_limited", retry_after_seconds: 3601 }, "retry_after_seconds"],
    ["retry_after_seconds not whole", { fault: "rate_limited", retry_after_seconds: 0.5 }, "retry_after_seconds"],
    ["retry_after_seconds as text", { fault: "rate_limited", retry_after_seconds: "2" }, "retry_after_seconds"],
  ])("refuses %s with 400 naming the field, and stores nothing", async (_name, body, param) => {
    const paysim = await usePaysimApp({ config: TWO_COMPANIES });
    expectApiError(await paysim.api("POST", "/v1/sandbox/faults", { body, key: KEY_A }), 400, "invalid_request", param);
    expect(await listFaults(paysim)).toEqual([]);
  });

  it("refuses a body that is not JSON and an unknown query parameter on the list", async () => {
    const paysim = await usePaysimApp({ config: TWO_COMPANIES });
    expectApiError(
      await paysim.api("POST", "/v1/sandbox/faults", { raw: "fault=server_error", contentType: "text/plain", key: KEY_A }),
      400,
      "invalid_request",
    );
    expectApiError(await paysim.api("GET", "/v1/sandbox/faults?state=active", { key: KEY_A }), 400, "invalid_request", "state");
    expectApiError(await paysim.api("GET", "/v1/sandbox/faults", { key: null }), 401, "unauthorized");
    expect(await listFaults(paysim)).toEqual([]);
  });
});

describe("the faults that answer at once", () => {
  it("server_error answers 500 internal_error naming the rule, and writes nothing", async () => {
    const paysim = await usePaysimApp({ config: TWO_COMPANIES });
    const rule = await addFault(paysim, { fault: "server_error", match: { method: "POST", path: "/v1/payment_intents" } });
    const before = creationRows(paysim);
    const response = await createIntentCall(paysim);
    expectApiError(response, 500, "internal_error");
    expect(response.body.error.message).toContain(rule.id);
    expect(creationRows(paysim)).toEqual(before);
    // Used up: the rule is gone and the next request is served.
    expect(await listFaults(paysim)).toEqual([]);
    expect((await createIntentCall(paysim)).status).toBe(201);
  });

  it("rate_limited answers 429 with Retry-After: 1, and writes nothing", async () => {
    const paysim = await usePaysimApp({ config: TWO_COMPANIES });
    expect(await addFault(paysim, { fault: "rate_limited" })).toMatchObject({ retry_after_seconds: 1 });
    const before = creationRows(paysim);
    const response = await createIntentCall(paysim);
    expectApiError(response, 429, "rate_limited");
    expect(response.headers.get("retry-after")).toBe("1");
    expect(creationRows(paysim)).toEqual(before);
  });

  it.each([0, 7, 3600])("rate_limited with retry_after_seconds %i answers Retry-After: %i", async (seconds) => {
    const paysim = await usePaysimApp({ config: TWO_COMPANIES });
    const rule = await addFault(paysim, { fault: "rate_limited", retry_after_seconds: seconds, times: 2 });
    expect(rule).toMatchObject({ retry_after_seconds: seconds });
    expect((await listFaults(paysim))[0]).toMatchObject({ retry_after_seconds: seconds });
    for (let i = 0; i < 2; i++) {
      const response = await createIntentCall(paysim);
      expectApiError(response, 429, "rate_limited");
      expect(response.headers.get("retry-after")).toBe(String(seconds));
    }
  });

  it("hits exactly `times` matching requests, counting remaining down, and leaves requests it does not match alone", async () => {
    const paysim = await usePaysimApp({ config: TWO_COMPANIES });
    const intent = await createIntent(paysim, { amount: 1000 }, KEY_A);
    await addFault(paysim, { fault: "server_error", match: { method: "GET", path: "/v1/payment_intents/*" }, times: 3 });
    expect((await paysim.api("GET", "/v1/payment_intents", { key: KEY_A })).status).toBe(200);
    expect((await createIntentCall(paysim)).status).toBe(201);
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      statuses.push((await paysim.api("GET", `/v1/payment_intents/${intent.id}`, { key: KEY_A })).status);
      if (i === 0) expect((await listFaults(paysim))[0].remaining).toBe(2);
    }
    expect(statuses).toEqual([500, 500, 500, 200, 200]);
  });

  it("spends each hit once when many matching requests arrive together", async () => {
    const paysim = await usePaysimApp({ config: TWO_COMPANIES });
    await addFault(paysim, { fault: "server_error", match: { path: "/v1/payment_intents" }, times: 5 });
    const statuses = (await Promise.all(Array.from({ length: 20 }, () => createIntentCall(paysim)))).map((response) => response.status);
    expect(statuses.filter((status) => status === 500)).toHaveLength(5);
    expect(statuses.filter((status) => status === 201)).toHaveLength(15);
    expect(creationRows(paysim).payment_intents).toBe(15);
    expect(await listFaults(paysim)).toEqual([]);
  });

  it("tries rules oldest first and gives one request at most one fault", async () => {
    const paysim = await usePaysimApp({ config: TWO_COMPANIES });
    const first = await addFault(paysim, { fault: "rate_limited" });
    const second = await addFault(paysim, { fault: "server_error" });
    expect((await createIntentCall(paysim)).status).toBe(429);
    expect((await listFaults(paysim)).map((rule) => rule.id)).toEqual([second.id]);
    expect((await createIntentCall(paysim)).status).toBe(500);
    expect((await createIntentCall(paysim)).status).toBe(201);
    expect(first.id).not.toBe(second.id);
  });

  it("hits the matches its seeded draw picks, exactly, and the same ones in another run", async () => {
    const rule = { fault: "server_error", match: { path: "/v1/payment_intents" }, times: 10_000, probability: 0.4, seed: 1234 };
    const expected = Array.from({ length: 30 }, (_, ordinal) => (hitsMatch({ probability: 0.4, seed: 1234 }, ordinal) ? 500 : 201));
    expect(expected).toContain(500);
    expect(expected).toContain(201);
    for (let run = 0; run < 2; run++) {
      const paysim = await usePaysimApp({ config: TWO_COMPANIES });
      await addFault(paysim, rule);
      const statuses: number[] = [];
      for (let i = 0; i < expected.length; i++) statuses.push((await createIntentCall(paysim)).status);
      expect(statuses, `run ${run + 1}`).toEqual(expected);
      expect((await listFaults(paysim))[0].remaining).toBe(10_000 - expected.filter((status) => status === 500).length);
    }
  });

  it("never hits another company's requests", async () => {
    const paysim = await usePaysimApp({ config: TWO_COMPANIES });
    await addFault(paysim, { fault: "server_error", times: 10 }, KEY_B);
    for (let i = 0; i < 3; i++) expect((await createIntentCall(paysim, KEY_A)).status).toBe(201);
    expect((await listFaults(paysim, KEY_B))[0].remaining).toBe(10);
    expect((await createIntentCall(paysim, KEY_B)).status).toBe(500);
  });

  it("never hits /health, the checkout page or the sandbox controls, even with a rule that matches every /v1 path", async () => {
    const paysim = await usePaysimApp({ config: TWO_COMPANIES });
    const intent = await createIntent(paysim, { amount: 1000 }, KEY_A);
    await addFault(paysim, { fault: "server_error", times: 10 });
    expect((await paysim.api("GET", "/health", { key: KEY_A })).status).toBe(200);
    expect((await paysim.api("GET", new URL(intent.checkout_url).pathname, { key: KEY_A })).status).toBe(200);
    expect((await paysim.api("GET", "/v1/sandbox/clock", { key: KEY_A })).status).toBe(200);
    expect((await paysim.api("POST", "/v1/sandbox/clock/advance", { body: { seconds: 60 }, key: KEY_A })).status).toBe(200);
    expect((await listFaults(paysim))[0].remaining).toBe(10);
    expect((await paysim.api("GET", "/v1/events", { key: KEY_A })).status).toBe(500);
  });

  it("marks the hit request on the bus with the rule and the fault", async () => {
    const paysim = await usePaysimApp({ config: TWO_COMPANIES });
    const rule = await addFault(paysim, { fault: "rate_limited" });
    const logged: unknown[] = [];
    paysim.bus.on("request.logged", (request) => logged.push(request));
    await createIntentCall(paysim);
    await createIntentCall(paysim);
    expect(logged).toMatchObject([
      { method: "POST", path: "/v1/payment_intents", status: 429, fault: { ruleId: rule.id, fault: "rate_limited", unanswered: false } },
      { method: "POST", path: "/v1/payment_intents", status: 201 },
    ]);
    expect(logged[1]).not.toHaveProperty("fault");
  });
});

describe("reset and fault rules (docs/testing.md)", () => {
  it("POST /v1/sandbox/reset removes the company's rules only; reset() removes every company's", async () => {
    const paysim = await usePaysimApp({ config: TWO_COMPANIES });
    await addFault(paysim, { fault: "server_error" }, KEY_A);
    await addFault(paysim, { fault: "server_error" }, KEY_B);
    expect((await paysim.api("POST", "/v1/sandbox/reset", { key: KEY_A })).status).toBe(200);
    expect(await listFaults(paysim, KEY_A)).toEqual([]);
    expect(await listFaults(paysim, KEY_B)).toHaveLength(1);
    expect((await createIntentCall(paysim, KEY_A)).status).toBe(201);

    paysim.reset();
    expect(await listFaults(paysim, KEY_B)).toEqual([]);
    expect((await createIntentCall(paysim, KEY_B)).status).toBe(201);
  });
});

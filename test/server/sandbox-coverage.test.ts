import { describe, expect, it } from "vitest";
import { FAULT_KINDS } from "../../src/domain/faults.js";
import { EVENT_TYPES } from "../../src/domain/events.js";
import { PAYOUT_MOVES } from "../../src/resources/payouts/machine.js";
import { byMachine, MACHINE_MOVES, MACHINES } from "../../src/domain/resources.js";
import { catalogueOf } from "../../src/server/app.js";
import { coverageCatalogue, SERVED_TABLES } from "../../src/server/coverage-catalogue.js";
import { Bus } from "../../src/bus.js";
import { createClock } from "../../src/runtime/clock.js";
import { createCoverage, WEBHOOK_OUTCOMES, webhookOutcomes } from "../../src/services/coverage.js";
import { usePaysim, useReceiver, useStartedPaysim } from "../helpers/disposables.js";
import { expectApiError } from "../helpers/errors.js";
import { callApi, createIntent, freshKey, type TestPaysim } from "../helpers/paysim.js";

const KEY_A = "sk_test_coverage_a_001";
const KEY_B = "sk_test_coverage_b_001";
const TWO_COMPANIES = {
  companies: [
    { name: "A", currency: "EUR", secret_key: KEY_A, webhook_endpoints: [] },
    { name: "B", currency: "EUR", secret_key: KEY_B, webhook_endpoints: [] },
  ],
};
const PAYOUT = { amount: 5000, currency: "EUR", destination_type: "card", destination_token: "tok_card_visa" };

async function coverage(paysim: Pick<TestPaysim, "api">, key = KEY_A) {
  const response = await paysim.api("GET", "/v1/sandbox/coverage", { key });
  expect(response.status, response.text).toBe(200);
  return response.body;
}

describe("GET /v1/sandbox/coverage", () => {
  it("lists every operation of the document (but the sandbox's and the document's), move, event type, outcome, code and fault, all at 0, all uncovered", async () => {
    const paysim = await usePaysim({ config: TWO_COMPANIES });
    const document = (await paysim.api("GET", "/v1/openapi.json", { key: null })).body;
    const documented = Object.entries(document.paths as Record<string, Record<string, { operationId: string }>>)
      .filter(([path]) => !path.startsWith("/v1/sandbox") && path !== "/v1/openapi.json")
      .flatMap(([, methods]) => Object.values(methods).map((operation) => operation.operationId));

    const report = await coverage(paysim);
    expect(Object.keys(report).sort()).toEqual(
      [
        "errors",
        "events",
        "faults",
        "instances",
        "object",
        "operations",
        "refused_transitions",
        "request_id",
        "since",
        "summary",
        "transitions",
        "uncovered",
        "version",
        "webhooks",
      ].sort(),
    );
    expect(report).toMatchObject({ object: "coverage", version: 1, instances: 0 });
    expect(Object.keys(report.operations).sort()).toEqual([...documented].sort());
    expect(Object.values(report.operations)).toEqual(documented.map(() => ({ calls: 0, statuses: {} })));
    expect(Object.keys(report.transitions)).toEqual(MACHINES);
    expect(report.transitions.payout).toEqual(Object.fromEntries(PAYOUT_MOVES.map(({ from, to }) => [`${from}->${to}`, 0])));
    expect(Object.keys(report.transitions.payment_intent)).toEqual([
      "created->authorized",
      "created->failed",
      "created->canceled",
      "authorized->captured",
      "authorized->canceled",
    ]);
    expect(report.refused_transitions).toEqual(byMachine(() => ({})));
    expect(report.events).toEqual(Object.fromEntries(EVENT_TYPES.map((type) => [type, 0])));
    expect(report.webhooks).toEqual(Object.fromEntries(WEBHOOK_OUTCOMES.map((outcome) => [outcome, 0])));
    expect(report.faults).toEqual(Object.fromEntries(FAULT_KINDS.map((kind) => [kind, 0])));
    // Codes only the sandbox's operations answer cannot be covered by counted requests: left out.
    expect(Object.keys(report.errors)).toEqual([
      "invalid_request",
      "unauthorized",
      "forbidden",
      "not_found",
      "method_not_allowed",
      "idempotency_conflict",
      "payload_too_large",
      "rate_limited",
      "internal_error",
    ]);
    expect(report.uncovered.operations).toEqual(documented);
    expect(report.uncovered.transitions).toContain("payout: processing->succeeded");
    expect(report.uncovered.events).toEqual([...EVENT_TYPES]);
    // Each machine's moves once: "created->canceled" is drawn from two triggers.
    const drawnMoves = MACHINES.reduce((sum, machine) => sum + new Set(MACHINE_MOVES[machine].map(({ from, to }) => `${from}->${to}`)).size, 0);
    expect(report.summary).toEqual({
      operations: `0/${documented.length}`,
      transitions: `0/${drawnMoves}`,
      events: `0/${EVENT_TYPES.length}`,
      webhooks: `0/${WEBHOOK_OUTCOMES.length}`,
      errors: "0/9",
      faults: `0/${FAULT_KINDS.length}`,
    });
  });

  it("counts the calls with their statuses, the moves made and refused, the events and the error codes; /v1/sandbox requests are not counted", async () => {
    const paysim = await usePaysim({ config: TWO_COMPANIES, payouts: "manual" });
    const intent = await createIntent(paysim, { amount: 1000 }, KEY_A);
    expect((await paysim.api("POST", `/v1/payment_intents/${intent.id}/cancel`, { key: KEY_A, body: {} })).status).toBe(200);
    expectApiError(await paysim.api("POST", `/v1/payment_intents/${intent.id}/capture`, { key: KEY_A, body: {} }), 400, "invalid_request");
    expectApiError(await paysim.api("GET", "/v1/payment_intents/pi_missing", { key: KEY_A }), 404, "not_found");
    const payout = (await paysim.api("POST", "/v1/payouts", { key: KEY_A, body: PAYOUT, idempotencyKey: freshKey() })).body;
    expect((await paysim.api("POST", `/v1/sandbox/payouts/${payout.id}/transition`, { key: KEY_A, body: { to: "processing" } })).status).toBe(200);
    expectApiError(await paysim.api("POST", `/v1/sandbox/payouts/${payout.id}/transition`, { key: KEY_A, body: { to: "returned" } }), 400, "invalid_request");
    // Sandbox requests, even failing ones, count for nothing of their own.
    expectApiError(await paysim.api("POST", "/v1/sandbox/reset", { key: KEY_A, body: { nope: 1 } }), 400, "invalid_request");
    expectApiError(await paysim.api("GET", "/v1/sandbox/nothing", { key: KEY_A }), 404, "not_found");

    const report = await coverage(paysim);
    expect(report.operations.createPaymentIntent).toEqual({ calls: 1, statuses: { "201": 1 } });
    expect(report.operations.cancelPaymentIntent).toEqual({ calls: 1, statuses: { "200": 1 } });
    expect(report.operations.capturePaymentIntent).toEqual({ calls: 1, statuses: { "400": 1 } });
    expect(report.operations.getPaymentIntent).toEqual({ calls: 1, statuses: { "404": 1 } });
    expect(report.operations.createPayout).toEqual({ calls: 1, statuses: { "201": 1 } });
    expect(report.transitions.payment_intent["created->canceled"]).toBe(1);
    expect(report.transitions.payout["pending->processing"]).toBe(1);
    expect(report.refused_transitions).toEqual({
      ...byMachine(() => ({})),
      payment_intent: { "canceled->captured": 1 },
      payout: { "processing->returned": 1 },
    });
    expect(report.events).toMatchObject({
      "payment_intent.created": 1,
      "payment_intent.canceled": 1,
      "payout.created": 1,
      "payout.processing": 1,
      "payout.succeeded": 0,
    });
    expect(report.errors).toMatchObject({ invalid_request: 1, not_found: 1, unauthorized: 0 });
    expect(report.uncovered.operations).not.toContain("createPaymentIntent");
    expect(report.uncovered.operations).toContain("listPayouts");
    expect(report.uncovered.errors).toEqual(
      Object.entries(report.errors)
        .filter(([, n]) => n === 0)
        .map(([code]) => code),
    );
    expect(report.summary.events).toBe(`4/${EVENT_TYPES.length}`);

    // The other company went through nothing.
    const other = await coverage(paysim, KEY_B);
    expect(other.summary.operations).toMatch(/^0\//);
    expect(other.refused_transitions).toEqual(byMachine(() => ({})));
  });

  it("counts a request without a known key for the default company, and the faults that hit requests", async () => {
    const paysim = await usePaysim({ config: TWO_COMPANIES });
    expectApiError(await paysim.api("GET", "/v1/payouts", { key: "sk_test_nobody_000001" }), 401, "unauthorized");
    const rule = await paysim.api("POST", "/v1/sandbox/faults", { key: KEY_B, body: { fault: "server_error", match: { method: "GET", path: "/v1/events" } } });
    expect(rule.status, rule.text).toBe(201);
    expectApiError(await paysim.api("GET", "/v1/events", { key: KEY_B }), 500, "internal_error");

    const a = await coverage(paysim, KEY_A);
    expect(a.operations.listPayouts).toEqual({ calls: 1, statuses: { "401": 1 } });
    expect(a.errors.unauthorized).toBe(1);
    const b = await coverage(paysim, KEY_B);
    expect(b.faults).toEqual({ server_error: 1, rate_limited: 0, lost_response: 0, timeout: 0, latency: 0 });
    expect(b.operations.listEvents).toEqual({ calls: 1, statuses: { "500": 1 } });
    expect(b.errors.internal_error).toBe(1);
    expect(b.uncovered.faults).toEqual(["rate_limited", "lost_response", "timeout", "latency"]);
  });

  it("counts a test's own setup call like any client call, and nothing that is not a request (forwardTo, faults.add)", async () => {
    const paysim = await useStartedPaysim({ forwardTo: "http://127.0.0.1:9/hooks" });
    await paysim.faults.add({ fault: "server_error", match: { method: "GET", path: "/v1/payouts" } });
    const before = await paysim.coverage();
    expect(before.operations.createWebhookEndpoint).toEqual({ calls: 0, statuses: {} });
    expect(before.summary.operations).toMatch(/^0\//);
    expect(Object.values(before.faults)).toEqual([0, 0, 0, 0, 0]);

    const created = await callApi(paysim.url, paysim.secretKey, "POST", "/v1/webhook_endpoints", { body: { url: "http://127.0.0.1:9/setup" } });
    expect(created.status, created.text).toBe(201);
    expect((await paysim.coverage()).operations.createWebhookEndpoint).toEqual({ calls: 1, statuses: { "201": 1 } });
  });

  it("counts webhook outcomes: first try, a receiver's 5xx then a retry that succeeds, a receiver's 4xx", async () => {
    const receiver = await useReceiver(200);
    const paysim = await usePaysim({ forwardTo: [receiver.url] });
    await createIntent(paysim);
    await paysim.waits.webhooks.waitFor({ type: "payment_intent.created", url: receiver.url });
    receiver.queue(503);
    const second = await createIntent(paysim);
    await paysim.waits.webhooks.waitFor({ objectId: second.id, attempt: 1 });
    await paysim.advanceClock(3600);
    await paysim.waits.webhooks.waitFor({ objectId: second.id, status: "succeeded" });
    receiver.queue(410);
    const third = await createIntent(paysim);
    await paysim.waits.webhooks.waitFor({ objectId: third.id, attempt: 1 });

    const report = await coverage(paysim, paysim.secretKey);
    expect(report.webhooks).toMatchObject({
      delivered_first_try: 1,
      delivered_after_retry: 1,
      receiver_5xx: 1,
      receiver_4xx: 1,
      gave_up: 0,
      connection_refused: 0,
    });
    expect(report.uncovered.webhooks).not.toContain("delivered_after_retry");
    expect(report.uncovered.webhooks).toContain("gave_up");
  });

  it("keeps the counts through a reset; DELETE /v1/sandbox/coverage clears the caller's company's, and coverage() in-process answers the same object", async () => {
    const paysim = await usePaysim({ config: TWO_COMPANIES });
    await createIntent(paysim, { amount: 1000 }, KEY_A);
    await createIntent(paysim, { amount: 1000 }, KEY_B);
    const { request_id: _id, ...overHttp } = await coverage(paysim, KEY_A);
    expect(paysim.coverage()).toEqual(overHttp);

    // A reset is a test's boundary, not the run's: what the run went through stays counted.
    expect((await paysim.api("POST", "/v1/sandbox/reset", { key: KEY_A })).status).toBe(200);
    paysim.reset();
    await createIntent(paysim, { amount: 1000 }, KEY_A);
    const kept = await coverage(paysim, KEY_A);
    expect(kept.operations.createPaymentIntent).toEqual({ calls: 2, statuses: { "201": 2 } });
    expect(kept.events["payment_intent.created"]).toBe(2);
    expect(kept.since).toBe(overHttp.since);

    const cleared = await paysim.api("DELETE", "/v1/sandbox/coverage", { key: KEY_A });
    expect(cleared.status, cleared.text).toBe(200);
    expect(cleared.body).toEqual({ object: "coverage_cleared", since: expect.any(String), request_id: expect.stringMatching(/^req_/) });
    const a = await coverage(paysim, KEY_A);
    expect(a.since).toBe(cleared.body.since);
    expect(a.operations.createPaymentIntent.calls).toBe(0);
    expect(a.events["payment_intent.created"]).toBe(0);
    expect(a.summary.operations).toMatch(/^0\//);
    // The other company's counts are its own.
    expect((await coverage(paysim, KEY_B)).operations.createPaymentIntent.calls).toBe(1);
    expect((await coverage(paysim, KEY_B)).since).toBe(overHttp.since);
    expect(paysim.clearCoverage(paysim.companies[1]!.company.id)).toEqual(expect.any(String));
    expect((await coverage(paysim, KEY_B)).operations.createPaymentIntent.calls).toBe(0);
  });

  it("refuses an unknown query parameter, naming it", async () => {
    const paysim = await usePaysim();
    expectApiError(await paysim.api("GET", "/v1/sandbox/coverage?area=events"), 400, "invalid_request", "area");
    expectApiError(await paysim.api("GET", "/v1/sandbox/coverage?scope=parent"), 400, "invalid_request", "scope");
  });
});

describe("the coverage catalogue", () => {
  it("follows the definitions it is given: one more operation or move appears, at 0 and uncovered, and is counted once made", async () => {
    const paysim = await usePaysim();
    const served = catalogueOf(paysim.app);
    const operations = [
      ...served.operations.map(({ operationId, route }) => {
        const [method, path] = route.split(" ");
        return { operationId, method: method!.toLowerCase() as "get" | "post" | "delete", path: path!, summary: "", answers: {} };
      }),
      { operationId: "refundPaymentIntent", method: "post" as const, path: "/v1/payment_intents/:id/refund", summary: "", answers: {} },
    ];
    const grown = coverageCatalogue(operations, {
      ...SERVED_TABLES,
      machineMoves: { ...SERVED_TABLES.machineMoves, payout: [...PAYOUT_MOVES, { from: "processing", to: "returned" }] },
    });
    expect(grown.operations.at(-1)).toEqual({ operationId: "refundPaymentIntent", route: "POST /v1/payment_intents/:id/refund" });

    const bus = new Bus();
    const counter = createCoverage({ bus, clock: createClock({}), defaultCompanyId: "co_default" });
    const zero = counter.report("co_1", grown);
    expect(zero.operations.refundPaymentIntent).toEqual({ calls: 0, statuses: {} });
    expect(zero.transitions.payout["processing->returned"]).toBe(0);
    expect(zero.uncovered.operations).toContain("refundPaymentIntent");
    expect(zero.uncovered.transitions).toContain("payout: processing->returned");
    expect(zero.summary.operations).toBe(`0/${served.operations.length + 1}`);

    bus.emit("state.moved", { companyId: "co_1", machine: "payout", from: "processing", to: "returned", refused: false });
    bus.emit("request.logged", {
      requestId: "req_1",
      method: "POST",
      path: "/v1/payment_intents/pi_1/refund",
      status: 200,
      durationMs: 1,
      arrivedAtMs: 0,
      companyId: "co_1",
      route: "POST /v1/payment_intents/:id/refund",
    });
    const counted = counter.report("co_1", grown);
    expect(counted.transitions.payout["processing->returned"]).toBe(1);
    expect(counted.operations.refundPaymentIntent).toEqual({ calls: 1, statuses: { "200": 1 } });
    expect(counted.uncovered.operations).not.toContain("refundPaymentIntent");
    // The served catalogue does not have them.
    expect(paysim.coverage().operations).not.toHaveProperty("refundPaymentIntent");
  });
});

describe("webhookOutcomes", () => {
  const attempt = (statusCode: number | null, error: string | null = null, chaos: "duplicate" | "reordered" | "delayed" | null = null) => ({
    statusCode,
    error,
    durationMs: 1,
    arrivedAtMs: 0,
    chaos,
  });
  it.each([
    ["a 2xx on the first attempt", { status: "succeeded", attempts: 1, attempt: attempt(200) }, ["delivered_first_try"]],
    ["a 2xx on a retry", { status: "succeeded", attempts: 3, attempt: attempt(204) }, ["delivered_after_retry"]],
    ["a 4xx, a retry due", { status: "pending", attempts: 1, attempt: attempt(404) }, ["receiver_4xx"]],
    ["a 5xx on the last attempt", { status: "failed", attempts: 7, attempt: attempt(500) }, ["receiver_5xx", "gave_up"]],
    ["a timeout", { status: "pending", attempts: 2, attempt: attempt(null, "timeout: no response within 10000 ms") }, ["timeout"]],
    ["a refused connection", { status: "pending", attempts: 1, attempt: attempt(null, "connection refused") }, ["connection_refused"]],
    ["a duplicate", { status: "succeeded", attempts: 1, attempt: attempt(200, null, "duplicate") }, ["duplicate"]],
    [
      "a reordered delivery that succeeds",
      { status: "succeeded", attempts: 1, attempt: attempt(200, null, "reordered") },
      ["reordered", "delivered_first_try"],
    ],
    ["a delayed one", { status: "succeeded", attempts: 1, attempt: attempt(200, null, "delayed") }, ["delayed", "delivered_first_try"]],
  ] as const)("%s", (_name, update, outcomes) => {
    expect(webhookOutcomes(update)).toEqual(outcomes);
  });
});

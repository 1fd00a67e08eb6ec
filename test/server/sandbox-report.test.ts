// GET /v1/sandbox/report over real HTTP: scripted clients that make each mistake the findings
// name raise it, with the request ids that show it; the same flows done right raise nothing.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { RequestLogged } from "../../src/bus.js";
import { startTestPaysim, type TestPaysim } from "../helpers/paysim.js";
import { startReceiver } from "../helpers/receiver.js";
import { usePaysim, useReceiver } from "../helpers/disposables.js";
import { manualTimers } from "../helpers/manual-timers.js";
import { emitCreatedEvent, settle, useFrozenPaysim } from "../webhooks/support.js";

let paysim: TestPaysim;
beforeEach(async () => {
  paysim = await startTestPaysim({ db: ":memory:" });
});
afterEach(() => paysim.dispose());

const ORDER = { amount: 4200, description: "Order 42" };
const report = async () => (await paysim.api("GET", "/v1/sandbox/report")).body;
const codes = async () => (await report()).findings.map((finding: { code: string; count: number }) => [finding.code, finding.count]);

/** Creates the order, its answer lost by a fault rule: the client sees the connection close. */
async function lostCreation(key: string): Promise<string | undefined> {
  await paysim.api("POST", "/v1/sandbox/faults", { body: { fault: "lost_response", match: { method: "POST", path: "/v1/payment_intents" }, times: 1 } });
  const requestIds: string[] = [];
  const listener = (logged: RequestLogged) => void (logged.path === "/v1/payment_intents" && requestIds.push(logged.requestId));
  paysim.bus.on("request.logged", listener);
  await expect(paysim.api("POST", "/v1/payment_intents", { body: ORDER, idempotencyKey: key })).rejects.toThrow();
  paysim.bus.off("request.logged", listener);
  return requestIds[0];
}

describe("GET /v1/sandbox/report", () => {
  it("answers the coverage, no findings and their summary for a well-behaved client", async () => {
    const created = await paysim.api("POST", "/v1/payment_intents", { body: ORDER, idempotencyKey: "order-42" });
    expect(created.status).toBe(201);
    const answer = await paysim.api("GET", "/v1/sandbox/report");
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      object: "report",
      version: 1,
      findings: [],
      summary: { findings: { error: 0, warning: 0 } },
      coverage: { object: "coverage", operations: { createPaymentIntent: { calls: 1 } } },
    });
    expect(answer.body.summary.coverage).toEqual(answer.body.coverage.summary);
    expect(answer.body.request_id).toMatch(/^req_/);
  });

  it("names new_key_on_retry when a lost creation is sent again under a new key, with both request ids", async () => {
    const lost = await lostCreation("order-42-a");
    const again = await paysim.api("POST", "/v1/payment_intents", { body: ORDER, idempotencyKey: "order-42-b" });
    expect(again.status).toBe(201);
    const { findings, summary } = await report();
    expect(summary.findings).toEqual({ error: 1, warning: 0 });
    expect(findings).toEqual([
      expect.objectContaining({
        code: "new_key_on_retry",
        severity: "error",
        count: 1,
        examples: [{ request_id: again.body.request_id, detail: expect.stringContaining(`as ${lost}, which got no answer`) }],
      }),
    ]);
  });

  it("raises nothing when the lost creation is retried under its own key", async () => {
    await lostCreation("order-42-a");
    const again = await paysim.api("POST", "/v1/payment_intents", { body: ORDER, idempotencyKey: "order-42-a" });
    expect(again.status).toBe(201);
    expect(await codes()).toEqual([]);
  });

  it("forgets at a reset what the rules kept (two tests creating the same order), keeps what they raised, and clears on DELETE /v1/sandbox/coverage", async () => {
    await lostCreation("test-1");
    await paysim.api("POST", "/v1/sandbox/reset");
    await paysim.api("POST", "/v1/payment_intents", { body: ORDER, idempotencyKey: "test-2" });
    expect(await codes()).toEqual([]);

    await lostCreation("test-2-a");
    await paysim.api("POST", "/v1/payment_intents", { body: ORDER, idempotencyKey: "test-2-b" });
    await paysim.api("POST", "/v1/sandbox/reset");
    expect(await codes()).toEqual([["new_key_on_retry", 1]]);
    await paysim.api("DELETE", "/v1/sandbox/coverage");
    expect(await codes()).toEqual([]);
  });

  it("names retry_after_ignored when a 429's Retry-After is not waited for, and retried_client_error for a 4xx loop", async () => {
    await paysim.api("POST", "/v1/sandbox/faults", {
      body: { fault: "rate_limited", match: { method: "GET", path: "/v1/payouts" }, times: 1, retry_after_seconds: 30 },
    });
    expect((await paysim.api("GET", "/v1/payouts")).status).toBe(429);
    expect((await paysim.api("GET", "/v1/payouts")).status).toBe(200);
    for (let i = 0; i < 3; i++) expect((await paysim.api("POST", "/v1/payment_intents", { body: { amount: -1 }, idempotencyKey: "bad" })).status).toBe(400);
    expect(await codes()).toEqual([
      ["retry_after_ignored", 1],
      ["retried_client_error", 1],
    ]);
  });

  it("names polling_instead_of_webhooks for 20 reads of one object within 10 s while an endpoint listens, and not without one", async () => {
    const intent = (await paysim.api("POST", "/v1/payment_intents", { body: ORDER, idempotencyKey: "poll" })).body;
    for (let i = 0; i < 20; i++) await paysim.api("GET", `/v1/payment_intents/${intent.id}`);
    expect(await codes()).toEqual([]);
    const receiver = await startReceiver();
    try {
      await paysim.api("POST", "/v1/webhook_endpoints", { body: { url: receiver.url, enabled_events: ["*"] } });
      for (let i = 0; i < 20; i++) await paysim.api("GET", `/v1/payment_intents/${intent.id}`);
      const [finding] = (await report()).findings;
      expect(finding).toMatchObject({ code: "polling_instead_of_webhooks", examples: [{ object_id: intent.id }] });
    } finally {
      await receiver.close();
    }
  });

  it("names valid_webhook_rejected when a receiver answers 401 to a first, correctly signed delivery: the request that caused the event, and the delivery", async () => {
    const receiver = await startReceiver(401);
    try {
      await paysim.api("POST", "/v1/webhook_endpoints", { body: { url: receiver.url, enabled_events: ["payment_intent.created"] } });
      const intent = (await paysim.api("POST", "/v1/payment_intents", { body: ORDER, idempotencyKey: "hook" })).body;
      const waited = await paysim.api("GET", `/v1/sandbox/webhooks/wait?type=payment_intent.created&object_id=${intent.id}&attempt=1&timeout_ms=10000`);
      expect(waited.status).toBe(200);
      const [finding] = (await report()).findings;
      expect(finding).toMatchObject({
        code: "valid_webhook_rejected",
        severity: "warning",
        examples: [{ request_id: intent.request_id, object_id: waited.body.delivery.id, detail: expect.stringContaining("answered 401") }],
      });
    } finally {
      await receiver.close();
    }
  });
});

describe("startPaysim()'s report()", () => {
  it("resolves to the report GET /v1/sandbox/report answers, without its request_id", async () => {
    const { startPaysim } = await import("../../src/index.js");
    const running = await startPaysim();
    try {
      const answer = await fetch(`${running.url}/v1/sandbox/report`, { headers: { Authorization: `Bearer ${running.secretKey}` } });
      const { request_id: _id, ...overHttp } = (await answer.json()) as Record<string, unknown>;
      expect(await running.report()).toEqual(overHttp);
      expect(await running.report({ scope: "self" })).toMatchObject({ object: "report", findings: [], coverage: { instances: 0 } });
    } finally {
      await running.close();
    }
  });
});

describe("slow_webhook_receiver", () => {
  // The attempt's duration is measured on timers the test moves: no real wait, and a loaded machine changes nothing.
  it.each([
    ["a receiver that answers after 6 s", 6_000, [["slow_webhook_receiver", 1]]],
    ["a receiver that answers within 5 s", 5_000, []],
  ])("%s", async (_name, tookMs, expected) => {
    const receiver = await useReceiver("hang");
    const timers = manualTimers();
    const slow = await useFrozenPaysim({ forwardTo: receiver.url, webhookTimeout: 10_000, timers });
    const { intent, eventId } = await emitCreatedEvent(slow);
    await receiver.waitForRequests(1);
    timers.advance(tookMs);
    receiver.release(200);
    await settle(slow);
    const { findings } = (await slow.api("GET", "/v1/sandbox/report")).body;
    expect(findings.map((finding: { code: string; count: number }) => [finding.code, finding.count])).toEqual(expected);
    if (expected.length > 0) {
      // The request that caused the event, and the delivery.
      const [delivery] = (await slow.api("GET", `/v1/events/${eventId}`)).body.deliveries;
      expect(findings[0].examples[0]).toEqual({
        request_id: intent.request_id,
        object_id: delivery.id,
        detail: expect.stringContaining("answered 200 after 6.0 s"),
      });
    }
  });
});

describe("retry_after_ignored, timed on the instance's timers", () => {
  // When a request arrived is read from the timers the test moves: the retry's wait is the test's, not the machine's.
  it.each([
    ["a retry sent 29 s after a 429 with Retry-After: 30", 29_000, [["retry_after_ignored", 1]]],
    ["a retry sent 30 s after it", 30_000, []],
  ])("%s", async (_name, waitedMs, expected) => {
    const timers = manualTimers();
    const timed = await usePaysim({ timers });
    await timed.api("POST", "/v1/sandbox/faults", {
      body: { fault: "rate_limited", match: { method: "GET", path: "/v1/payouts" }, times: 1, retry_after_seconds: 30 },
    });
    expect((await timed.api("GET", "/v1/payouts")).status).toBe(429);
    timers.advance(waitedMs);
    expect((await timed.api("GET", "/v1/payouts")).status).toBe(200);
    const { findings } = (await timed.api("GET", "/v1/sandbox/report")).body;
    expect(findings.map((finding: { code: string; count: number }) => [finding.code, finding.count])).toEqual(expected);
    if (expected.length > 0) expect(findings[0].examples[0].detail).toContain("GET /v1/payouts sent again 1.0 s before the Retry-After");
  });
});

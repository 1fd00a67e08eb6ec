import { describe, expect, it } from "vitest";
import {
  FINDING_CODES,
  FINDING_LIMITS,
  FINDING_RULES,
  RETRY_SENSITIVE_CREATIONS,
  FindingsTracker,
  findingCounts,
  findingOccurrences,
  mergeFindings,
  type ObservedAttempt,
  type ObservedRequest,
} from "../../src/domain/findings.js";
import { MACHINES, RESOURCES } from "../../src/domain/resources.js";

const AT = "2026-01-01T00:00:00.000Z";
let sequence = 0;

/** A request as the rules see it: a creation of a payment intent, answered 201, unless told otherwise. */
function request(overrides: Partial<ObservedRequest> = {}): ObservedRequest {
  sequence += 1;
  const arrivedAtMs = overrides.arrivedAtMs ?? sequence * 10;
  return {
    requestId: `req_${sequence}`,
    method: "POST",
    route: "POST /v1/payment_intents",
    path: "/v1/payment_intents",
    status: 201,
    arrivedAtMs,
    answeredAtMs: arrivedAtMs + 1,
    clockMs: arrivedAtMs,
    idempotencyKey: `key-${sequence}`,
    bodyDigest: "digest-order-42",
    ...overrides,
  };
}

function attempt(overrides: Partial<ObservedAttempt> = {}): ObservedAttempt {
  return {
    deliveryId: "del_1",
    eventType: "payment_intent.captured",
    url: "http://127.0.0.1:9/hooks",
    attempt: 1,
    status: 200,
    durationMs: 20,
    chaosAltered: false,
    eventRequestId: "req_event",
    ...overrides,
  };
}

/** The codes a sequence of observations raises, with their counts. */
function raised(steps: ((tracker: FindingsTracker) => void)[], hasWebhookEndpoint = true): Record<string, number> {
  const tracker = new FindingsTracker(() => hasWebhookEndpoint);
  for (const step of steps) step(tracker);
  return Object.fromEntries(tracker.findings().map((finding) => [finding.code, finding.count]));
}

const see = (r: Partial<ObservedRequest>) => (tracker: FindingsTracker) => tracker.request(request(r), AT);
const deliver = (a: Partial<ObservedAttempt>) => (tracker: FindingsTracker) => tracker.attempt(attempt(a), AT);
const reset = (tracker: FindingsTracker) => tracker.reset();
const times = (n: number, step: (tracker: FindingsTracker) => void) => Array.from({ length: n }, () => step);

describe("the findings catalogue", () => {
  it("has one rule per code, with a title and advice", () => {
    expect(Object.keys(FINDING_RULES)).toEqual([...FINDING_CODES]);
    for (const rule of Object.values(FINDING_RULES)) expect(rule.title.length * rule.advice.length).toBeGreaterThan(0);
    expect(FINDING_RULES.new_key_on_retry.severity).toBe("error");
  });

  it("a creation left out of the retry-sensitive ones: the creation of every resource with a state machine is watched", () => {
    expect([...RETRY_SENSITIVE_CREATIONS]).toEqual(MACHINES.map((machine) => `POST /v1/${RESOURCES[machine].collection}`));
    for (const route of ["POST /v1/payment_intents", "POST /v1/payouts"]) expect(RETRY_SENSITIVE_CREATIONS).toContain(route);
  });
});

describe("new_key_on_retry", () => {
  it.each([
    ["a lost creation retried under a new key", [see({ status: "none", idempotencyKey: "a" }), see({ idempotencyKey: "b" })], { new_key_on_retry: 1 }],
    ["a creation answered 500 retried under a new key", [see({ status: 500, idempotencyKey: "a" }), see({ idempotencyKey: "b" })], { new_key_on_retry: 1 }],
    [
      "a payout lost, then created again under a new key",
      [see({ route: "POST /v1/payouts", status: "none", idempotencyKey: "a" }), see({ route: "POST /v1/payouts", idempotencyKey: "b" })],
      { new_key_on_retry: 1 },
    ],
    ["a lost creation retried under the same key (right)", [see({ status: "none", idempotencyKey: "a" }), see({ idempotencyKey: "a" })], {}],
    ["a 429 retried under a new key (nothing was processed)", [see({ status: 429, idempotencyKey: "a" }), see({ idempotencyKey: "b" })], {}],
    ["two answered creations of the same body (two real orders)", [see({ idempotencyKey: "a" }), see({ idempotencyKey: "b" })], {}],
    [
      "a lost creation, then another body under a new key",
      [see({ status: "none", idempotencyKey: "a" }), see({ idempotencyKey: "b", bodyDigest: "other" })],
      {},
    ],
    [
      "a lost creation, fixed by its own key, then the same body under a new key",
      [see({ status: "none", idempotencyKey: "a" }), see({ idempotencyKey: "a" }), see({ idempotencyKey: "b" })],
      {},
    ],
    [
      "a new key more than 10 minutes of paysim's clock later",
      [see({ status: "none", idempotencyKey: "a", clockMs: 0 }), see({ idempotencyKey: "b", clockMs: FINDING_LIMITS.newKeyWindowMs + 1 })],
      {},
    ],
    ["a reset between the two (two tests)", [see({ status: 500, idempotencyKey: "a" }), reset, see({ idempotencyKey: "b" })], {}],
    [
      "a lost read is no creation",
      [see({ route: "GET /v1/payment_intents/:id", method: "GET", status: "none" }), see({ route: "GET /v1/payment_intents/:id", method: "GET" })],
      {},
    ],
  ])("%s", (_name, steps, expected) => {
    expect(raised(steps)).toEqual(expected);
  });

  it("names both requests and the object the second one made", () => {
    const tracker = new FindingsTracker();
    tracker.request(request({ requestId: "req_lost", status: "none", idempotencyKey: "a" }), AT);
    tracker.request(request({ requestId: "req_again", idempotencyKey: "b", objectId: "pi_2" }), "2026-01-01T00:00:05.000Z");
    const [finding] = tracker.findings();
    expect(finding).toMatchObject({ code: "new_key_on_retry", severity: "error", count: 1, first_seen_at: "2026-01-01T00:00:05.000Z" });
    expect(finding!.examples).toEqual([{ request_id: "req_again", object_id: "pi_2", detail: expect.stringContaining("req_lost, which got no answer") }]);
  });
});

describe("retry_after_ignored", () => {
  const limited = {
    route: "GET /v1/payouts",
    method: "GET",
    path: "/v1/payouts",
    status: 429,
    retryAfterSeconds: 1,
    arrivedAtMs: 1000,
    answeredAtMs: 1001,
    idempotencyKey: undefined,
    bodyDigest: undefined,
  };
  // A creation answered 429, and what else the client sends: the retry is the same method, path and key.
  const creation = { status: 429, retryAfterSeconds: 1, arrivedAtMs: 1000, answeredAtMs: 1001, idempotencyKey: "order-1" };
  const early = { status: 201, arrivedAtMs: 1500, answeredAtMs: 1501 };
  // An action sent without a key: the retry is the same method, path and body.
  const keyless = {
    route: "POST /v1/payment_intents/:id/confirm",
    path: "/v1/payment_intents/pi_1/confirm",
    idempotencyKey: undefined,
    bodyDigest: undefined,
    body: { payment_method: "pm_card_visa" },
  };
  it.each([
    ["the same request before Retry-After passed", [see(limited), see({ ...limited, status: 200, arrivedAtMs: 1500 })], { retry_after_ignored: 1 }],
    ["the same request once it passed", [see(limited), see({ ...limited, status: 200, arrivedAtMs: 2001 })], {}],
    ["another route at once", [see(limited), see({ ...limited, route: "GET /v1/events", path: "/v1/events", status: 200, arrivedAtMs: 1500 })], {}],
    ["a request sent before the 429 was answered (in flight together)", [see(limited), see({ ...limited, status: 200, arrivedAtMs: 1000 })], {}],
    ["Retry-After: 0", [see({ ...limited, retryAfterSeconds: 0 }), see({ ...limited, status: 200, arrivedAtMs: 1002 })], {}],
    [
      "a creation sent again under its key before Retry-After passed",
      [see(creation), see({ ...early, idempotencyKey: "order-1" })],
      { retry_after_ignored: 1 },
    ],
    ["another creation (another key) at once", [see(creation), see({ ...early, idempotencyKey: "order-2" })], {}],
    ["the creation sent again under its key once it passed", [see(creation), see({ ...early, arrivedAtMs: 2001, idempotencyKey: "order-1" })], {}],
    [
      "a keyless action sent again with the same body before Retry-After passed",
      [see({ ...keyless, ...creation, idempotencyKey: undefined }), see({ ...keyless, ...early, body: { payment_method: "pm_card_visa" } })],
      { retry_after_ignored: 1 },
    ],
    [
      "a keyless action with another body at once",
      [see({ ...keyless, ...creation, idempotencyKey: undefined }), see({ ...keyless, ...early, body: { payment_method: "pm_card_mastercard" } })],
      {},
    ],
    ["a reset between the 429 and the retry (two tests)", [see(limited), reset, see({ ...limited, status: 200, arrivedAtMs: 1500 })], {}],
  ])("%s", (_name, steps, expected) => {
    expect(raised(steps)).toEqual(expected);
  });
});

describe("retried_client_error", () => {
  const bad = { status: 400, idempotencyKey: "same", bodyDigest: "bad-body" };
  const keylessBad = (amount: number) => ({ status: 400, idempotencyKey: undefined, bodyDigest: undefined, body: { amount } });
  it.each([
    ["a keyless request with the same body refused three times", times(3, see(keylessBad(-1))), { retried_client_error: 1 }],
    ["a keyless request with another body each time (a client trying fixes)", [see(keylessBad(-1)), see(keylessBad(-2)), see(keylessBad(-3))], {}],
    ["a reset inside the streak (two tests)", [see(bad), see(bad), reset, see(bad)], {}],
    ["the same request and 400 three times", times(3, see(bad)), { retried_client_error: 1 }],
    ["four times: one streak, one finding", times(4, see(bad)), { retried_client_error: 1 }],
    ["twice", times(2, see(bad)), {}],
    [
      "three times, each with another body (a client trying fixes)",
      [see({ ...bad, bodyDigest: "a" }), see({ ...bad, bodyDigest: "b" }), see({ ...bad, bodyDigest: "c" })],
      {},
    ],
    ["broken by a success", [see(bad), see(bad), see({ ...bad, status: 201 }), see(bad)], {}],
    [
      "not broken by a success of another request on the same path",
      [see(bad), see(bad), see({ ...bad, status: 201, idempotencyKey: "other" }), see(bad)],
      { retried_client_error: 1 },
    ],
    [
      "broken by a success of a keyless request with the same body",
      [see(keylessBad(-1)), see(keylessBad(-1)), see({ ...keylessBad(-1), status: 200 }), see(keylessBad(-1))],
      {},
    ],
    ["408 from a wait, three times (a long poll)", times(3, see({ ...bad, status: 408 })), {}],
  ])("%s", (_name, steps, expected) => {
    expect(raised(steps)).toEqual(expected);
  });
});

describe("polling_instead_of_webhooks", () => {
  const read = (arrivedAtMs: number) =>
    see({ method: "GET", route: "GET /v1/payment_intents/:id", path: "/v1/payment_intents/pi_1", objectId: "pi_1", arrivedAtMs, bodyDigest: undefined });
  const reads = (n: number, everyMs: number) => Array.from({ length: n }, (_, i) => read(i * everyMs));
  it.each([
    ["20 reads of one object within 10 s with an endpoint", reads(20, 100), true, { polling_instead_of_webhooks: 1 }],
    ["19 reads", reads(19, 100), true, {}],
    ["20 reads spread over more than 10 s", reads(20, 600), true, {}],
    ["20 reads without a webhook endpoint", reads(20, 100), false, {}],
    ["40 reads: two findings", reads(40, 100), true, { polling_instead_of_webhooks: 2 }],
    ["10 reads, a reset, 10 more reads (two tests)", [...reads(10, 100), reset, ...Array.from({ length: 10 }, (_, i) => read(1000 + i * 100))], true, {}],
  ])("%s", (_name, steps, hasEndpoint, expected) => {
    expect(raised(steps, hasEndpoint)).toEqual(expected);
  });
});

describe("the webhook rules", () => {
  it.each([
    ["an answer after 6 s", [deliver({ durationMs: 6000 })], { slow_webhook_receiver: 1 }],
    ["no answer for 10 s", [deliver({ durationMs: 10_000, status: null })], { slow_webhook_receiver: 1 }],
    ["an answer within 5 s", [deliver({ durationMs: 5000 })], {}],
    ["401 to a first, unaltered delivery", [deliver({ status: 401 })], { valid_webhook_rejected: 1 }],
    ["400 and 403 too", [deliver({ status: 400 }), deliver({ status: 403 })], { valid_webhook_rejected: 2 }],
    ["401 to a retry (attempt 2)", [deliver({ status: 401, attempt: 2 })], {}],
    ["401 to a delivery chaos altered", [deliver({ status: 401, chaosAltered: true })], {}],
    ["500 to a first delivery", [deliver({ status: 500 })], {}],
  ])("%s", (_name, steps, expected) => {
    expect(raised(steps)).toEqual(expected);
  });

  it("name in their examples the request that caused the event delivered, and the delivery", () => {
    const tracker = new FindingsTracker();
    tracker.attempt(attempt({ status: 401, durationMs: 6000, deliveryId: "del_9", eventRequestId: "req_created" }), AT);
    expect(tracker.findings().map((finding) => [finding.code, finding.examples])).toEqual([
      ["slow_webhook_receiver", [{ request_id: "req_created", object_id: "del_9", detail: expect.stringContaining("answered 401 after 6.0 s") }]],
      ["valid_webhook_rejected", [{ request_id: "req_created", object_id: "del_9", detail: expect.stringContaining("answered 401") }]],
    ]);
  });
});

describe("what a tracker keeps", () => {
  it("keeps at most five examples per finding, and counts them all", () => {
    const tracker = new FindingsTracker();
    for (let i = 0; i < 8; i++) tracker.attempt(attempt({ deliveryId: `del_${i}`, status: 401 }), AT);
    const [finding] = tracker.findings();
    expect(finding!.count).toBe(8);
    expect(finding!.examples.map((example) => example.object_id)).toEqual(["del_0", "del_1", "del_2", "del_3", "del_4"]);
  });

  it("stays bounded under 100,000 requests of varied bodies, keys and objects", () => {
    const tracker = new FindingsTracker();
    for (let i = 0; i < 100_000; i++) {
      tracker.request(
        request({ status: i % 2 ? "none" : 400, bodyDigest: `b${i}`, idempotencyKey: `k${i}`, path: `/v1/payouts/po_${i}`, objectId: `po_${i}` }),
        AT,
      );
      tracker.request(request({ method: "GET", route: "GET /v1/payouts/:id", path: `/v1/payouts/po_${i}`, objectId: `po_${i}` }), AT);
    }
    const kept = tracker as unknown as Record<string, Map<string, unknown>>;
    for (const map of ["failedCreations", "retryAfter", "clientErrors", "streakPaths", "reads"])
      expect(kept[map]!.size).toBeLessThanOrEqual(FINDING_LIMITS.tracked);
    // Each path counted holds an open streak: none is left behind by the streaks forgotten to stay bounded.
    expect([...(kept.streakPaths as Map<string, number>).values()].reduce((sum, n) => sum + n, 0)).toBe(kept.clientErrors!.size);
  });

  it("keeps its findings through a reset and forgets them on clear", () => {
    const tracker = new FindingsTracker();
    tracker.attempt(attempt({ status: 401 }), AT);
    tracker.reset();
    expect(tracker.findings()).toHaveLength(1);
    tracker.clear();
    expect(tracker.findings()).toEqual([]);
  });
});

describe("findings of several trackers", () => {
  it("are merged: counts added, the earliest first seen, errors first", () => {
    const parent = new FindingsTracker();
    parent.attempt(attempt({ status: 401 }), "2026-01-01T00:00:09.000Z");
    const worker = new FindingsTracker();
    worker.attempt(attempt({ status: 403 }), "2026-01-01T00:00:03.000Z");
    worker.request(request({ status: "none", idempotencyKey: "a" }), AT);
    worker.request(request({ idempotencyKey: "b" }), AT);
    const merged = mergeFindings([parent.findings(), worker.findings()]);
    expect(merged.map((finding) => [finding.code, finding.count, finding.first_seen_at])).toEqual([
      ["new_key_on_retry", 1, AT],
      ["valid_webhook_rejected", 2, "2026-01-01T00:00:03.000Z"],
    ]);
    // Findings by severity are distinct codes; how often each was raised is its count.
    expect(findingCounts(merged)).toEqual({ error: 1, warning: 1 });
    expect(findingOccurrences(merged)).toBe(3);
  });
});

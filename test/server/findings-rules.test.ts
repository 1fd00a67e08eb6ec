// The findings' rules over real HTTP, as a client meets them: every answer that leaves it not
// knowing whether a creation was done counts, a 429 is about the rate-limited request only, only
// a company's authenticated requests are its own, an instance is judged on its own clock, and
// every reset is a test's boundary.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startPaysim, type RunningPaysim } from "../../src/index.js";
import { usePaysim, useReceiver } from "../helpers/disposables.js";
import { manualTimers } from "../helpers/manual-timers.js";
import { clientFor, freshKey, type TestPaysim } from "../helpers/paysim.js";
import { startReceiver, type Receiver } from "../helpers/receiver.js";

type Api = Pick<TestPaysim, "api">;
interface Finding {
  code: string;
  count: number;
  first_seen_at: string;
  examples: { request_id: string | null; object_id?: string; detail: string }[];
}

const findingsOf = async (paysim: Api, query = ""): Promise<Finding[]> => {
  const answer = await paysim.api("GET", `/v1/sandbox/report${query}`);
  expect(answer.status, answer.text).toBe(200);
  return answer.body.findings;
};
const codesOf = async (paysim: Api, query = "") => (await findingsOf(paysim, query)).map((finding) => [finding.code, finding.count]);

const addFault = async (paysim: Api, rule: object) => {
  const added = await paysim.api("POST", "/v1/sandbox/faults", { body: rule });
  expect(added.status, added.text).toBe(201);
};

const CREATIONS = [
  ["a payment intent", "/v1/payment_intents", { amount: 1500 }],
  ["a payout", "/v1/payouts", { amount: 5000, currency: "EUR", destination_type: "card", destination_token: "tok_card_visa" }],
] as const;

describe("new_key_on_retry counts every answer that leaves a creation undecided", () => {
  it.each(CREATIONS)("%s answered 500 by a server_error fault, then sent again under a new key", async (_name, path, body) => {
    const paysim = await usePaysim({ db: ":memory:" });
    await addFault(paysim, { fault: "server_error", match: { method: "POST", path }, times: 1 });
    const failed = await paysim.api("POST", path, { body, idempotencyKey: "k1" });
    expect(failed.status).toBe(500);
    const again = await paysim.api("POST", path, { body, idempotencyKey: "k2" });
    expect(again.status).toBe(201);
    const findings = await findingsOf(paysim);
    expect(findings.map((finding) => [finding.code, finding.count])).toEqual([["new_key_on_retry", 1]]);
    expect(findings[0]!.examples).toEqual([
      { request_id: again.body.request_id, detail: expect.stringContaining(`as ${failed.body.request_id}, which got 500`) },
    ]);
  });

  it.each(CREATIONS)("%s held by a timeout fault that is waited out, or cut by the client, then sent again under a new key", async (_name, path, body) => {
    const timers = manualTimers();
    const paysim = await usePaysim({ db: ":memory:", timers });
    const timeout = { fault: "timeout", latency_ms: 30_000, match: { method: "POST", path }, times: 1 };
    await addFault(paysim, timeout);
    // Waited out: the rule's wait passes, the connection closes with no answer.
    let pending = timers.pending();
    const waitedOut = paysim.api("POST", path, { body, idempotencyKey: "k1" });
    await timers.untilPending(pending + 1);
    timers.advance(30_000);
    await expect(waitedOut).rejects.toThrow();
    expect((await paysim.api("POST", path, { body, idempotencyKey: "k2" })).status).toBe(201);
    // Cut by the client before the wait passes.
    const other = { ...body, amount: body.amount + 1 };
    await addFault(paysim, timeout);
    const client = new AbortController();
    pending = timers.pending();
    const cut = fetch(paysim.url + path, {
      method: "POST",
      headers: { Authorization: `Bearer ${paysim.secretKey}`, "Content-Type": "application/json", "Idempotency-Key": "k3" },
      body: JSON.stringify(other),
      signal: client.signal,
    });
    await timers.untilPending(pending + 1);
    client.abort();
    await expect(cut).rejects.toThrow();
    expect((await paysim.api("POST", path, { body: other, idempotencyKey: "k4" })).status).toBe(201);
    const [finding] = await findingsOf(paysim);
    expect(finding).toMatchObject({ code: "new_key_on_retry", count: 2 });
    for (const example of finding!.examples) expect(example.detail).toContain("which got no answer");
  });
});

describe("retry_after_ignored is about a retry of the rate-limited request", () => {
  /** Three different creations sent at once, a rate_limited fault (Retry-After: 30) hitting one: answers the key of the one it hit. */
  async function threeAtOnce(paysim: TestPaysim): Promise<{ key: string; body: object }> {
    await addFault(paysim, { fault: "rate_limited", match: { method: "POST", path: "/v1/payment_intents" }, times: 1, retry_after_seconds: 30 });
    const orders = ["a", "b", "c"].map((name, i) => ({ key: `order-${name}`, body: { amount: 1000 + i, description: `Order ${name}` } }));
    const answers = await Promise.all(orders.map(({ key, body }) => paysim.api("POST", "/v1/payment_intents", { body, idempotencyKey: key })));
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 201, 429]);
    expect(answers.find((answer) => answer.status === 429)!.headers.get("retry-after")).toBe("30");
    return orders[answers.findIndex((answer) => answer.status === 429)]!;
  }

  it("raises nothing when the limited one is retried with its key once Retry-After has passed, whatever the others did", async () => {
    const timers = manualTimers();
    const paysim = await usePaysim({ db: ":memory:", timers });
    const limited = await threeAtOnce(paysim);
    timers.advance(30_000);
    expect((await paysim.api("POST", "/v1/payment_intents", { body: limited.body, idempotencyKey: limited.key })).status).toBe(201);
    expect(await codesOf(paysim)).toEqual([]);
  });

  it("raises exactly retry_after_ignored when the limited one is sent again early, naming the retry", async () => {
    const timers = manualTimers();
    const paysim = await usePaysim({ db: ":memory:", timers });
    const limited = await threeAtOnce(paysim);
    timers.advance(1_000);
    const early = await paysim.api("POST", "/v1/payment_intents", { body: limited.body, idempotencyKey: limited.key });
    expect(early.status).toBe(201);
    const findings = await findingsOf(paysim);
    expect(findings.map((finding) => [finding.code, finding.count])).toEqual([["retry_after_ignored", 1]]);
    expect(findings[0]!.examples).toEqual([
      { request_id: early.body.request_id, detail: expect.stringContaining("POST /v1/payment_intents sent again 29.0 s before the Retry-After") },
    ]);
  });
});

describe("only requests authenticated as a company feed its findings", () => {
  it("401s (no key, an unknown key) raise nothing on an instance nor on the paysim that started it", async () => {
    const receiver = await useReceiver();
    const paysim = await usePaysim({ db: ":memory:" });
    const started = await paysim.api("POST", "/v1/sandbox/instances", { body: { forward_to: [receiver.url] }, idempotencyKey: freshKey() });
    expect(started.status, started.text).toBe(201);
    const instance = clientFor(started.body.url, started.body.secret_key);
    // The instance has a webhook endpoint: 20 reads of one object would be polling, three same 4xx a loop.
    for (const [target, key] of [
      [instance, null],
      [instance, paysim.secretKey],
      [paysim, null],
      [paysim, started.body.secret_key],
    ] as const) {
      for (let i = 0; i < 20; i++) expect((await target.api("GET", "/v1/payment_intents/pi_missing", { key })).status).toBe(401);
      for (let i = 0; i < 3; i++)
        expect((await target.api("POST", "/v1/payment_intents", { body: { amount: -1 }, idempotencyKey: "bad", key })).status).toBe(401);
    }
    expect(await codesOf(instance)).toEqual([]);
    expect(await codesOf(paysim)).toEqual([]);
  });
});

describe("an instance is judged on its own clock", () => {
  /** An instance of `paysim` whose creation of the order got no answer (a lost_response fault). */
  async function instanceWithLostCreation(paysim: TestPaysim) {
    const started = await paysim.api("POST", "/v1/sandbox/instances", { body: {}, idempotencyKey: freshKey() });
    expect(started.status, started.text).toBe(201);
    const instance = clientFor(started.body.url, started.body.secret_key);
    await addFault(instance, { fault: "lost_response", match: { method: "POST", path: "/v1/payment_intents" }, times: 1 });
    await expect(instance.api("POST", "/v1/payment_intents", { body: { amount: 1500 }, idempotencyKey: "k1" })).rejects.toThrow();
    return { id: started.body.id as string, instance };
  }
  const advance = async (target: Api, seconds: number) =>
    expect((await target.api("POST", "/v1/sandbox/clock/advance", { body: { seconds } })).status).toBe(200);

  it("the instance's clock an hour on: the same body under a new key is no retry, in the instance's report nor in the roll-up", async () => {
    const paysim = await usePaysim({ db: ":memory:" });
    const { instance } = await instanceWithLostCreation(paysim);
    await advance(instance, 3600);
    expect((await instance.api("POST", "/v1/payment_intents", { body: { amount: 1500 }, idempotencyKey: "k2" })).status).toBe(201);
    expect(await codesOf(instance)).toEqual([]);
    expect(await codesOf(paysim)).toEqual([]);
  });

  it("the parent's clock an hour on: a retry within the instance's window, the same finding in both reports, live and after the instance stops", async () => {
    const paysim = await usePaysim({ db: ":memory:" });
    const { id, instance } = await instanceWithLostCreation(paysim);
    await advance(paysim, 3600);
    expect((await instance.api("POST", "/v1/payment_intents", { body: { amount: 1500 }, idempotencyKey: "k2" })).status).toBe(201);
    const own = await findingsOf(instance);
    expect(own.map((finding) => [finding.code, finding.count])).toEqual([["new_key_on_retry", 1]]);
    expect(await findingsOf(paysim)).toEqual(own);
    expect(await findingsOf(paysim, "?scope=self")).toEqual([]);
    expect((await paysim.api("DELETE", `/v1/sandbox/instances/${id}`)).status).toBe(200);
    expect(await findingsOf(paysim)).toEqual(own);
  });
});

describe("two tests separated by beforeEach(() => paysim.reset()), in-process", () => {
  // One paysim for the file's tests, reset before each, as docs/faults.md writes it.
  let paysim: RunningPaysim;
  let receiver: Receiver;
  let api: Api;
  beforeAll(async () => {
    receiver = await startReceiver();
    paysim = await startPaysim({ forwardTo: receiver.url });
    api = clientFor(paysim.url, paysim.secretKey);
  });
  afterAll(async () => {
    await paysim.close();
    await receiver.close();
  });
  beforeEach(() => paysim.reset());

  const ORDER = { amount: 4200, description: "Order 42" };
  // What a reset keeps, and so what both tests can read: the --forward-to endpoint.
  const endpointId = async () => (await api.api("GET", "/v1/webhook_endpoints")).body.data[0].id as string;

  it("the first test: a creation answered 500, a 400 twice, a 429, ten reads of the endpoint", async () => {
    await addFault(api, { fault: "server_error", match: { method: "POST", path: "/v1/payment_intents" }, times: 1 });
    expect((await api.api("POST", "/v1/payment_intents", { body: ORDER, idempotencyKey: "test-1" })).status).toBe(500);
    for (let i = 0; i < 2; i++) expect((await api.api("POST", "/v1/payment_intents", { body: { amount: -1 }, idempotencyKey: "bad" })).status).toBe(400);
    await addFault(api, { fault: "rate_limited", match: { method: "GET", path: "/v1/payouts" }, times: 1, retry_after_seconds: 600 });
    expect((await api.api("GET", "/v1/payouts")).status).toBe(429);
    const polled = await endpointId();
    for (let i = 0; i < 10; i++) expect((await api.api("GET", `/v1/webhook_endpoints/${polled}`)).status).toBe(200);
  });

  it("the second test: the same order under its own key, the same 400 once, the same list, ten reads: none of it continues the first test's", async () => {
    expect((await api.api("POST", "/v1/payment_intents", { body: ORDER, idempotencyKey: "test-2" })).status).toBe(201);
    expect((await api.api("POST", "/v1/payment_intents", { body: { amount: -1 }, idempotencyKey: "bad" })).status).toBe(400);
    expect((await api.api("GET", "/v1/payouts")).status).toBe(200);
    const polled = await endpointId();
    for (let i = 0; i < 10; i++) expect((await api.api("GET", `/v1/webhook_endpoints/${polled}`)).status).toBe(200);
    expect((await paysim.report()).findings).toEqual([]);
  });
});

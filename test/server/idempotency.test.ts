import { beforeAll, describe, expect, it } from "vitest";
import { suiteScope, usePaysimApp } from "../helpers/disposables.js";
import { expectApiError } from "../helpers/errors.js";
import { createIntent, eventsSince, freshKey, newestEventId, type TestPaysim } from "../helpers/paysim.js";

const KEY_A = "sk_test_idem_company_a_0001";
const KEY_B = "sk_test_idem_company_b_0001";

const thisFile = suiteScope();
let paysim: TestPaysim;
beforeAll(async () => {
  paysim = await usePaysimApp(
    {
      config: {
        companies: [
          { name: "Alpha", currency: "EUR", secret_key: KEY_A, webhook_endpoints: [] },
          { name: "Beta", currency: "USD", secret_key: KEY_B, webhook_endpoints: [] },
        ],
      },
    },
    thisFile,
  );
});

const create = (body: unknown, idempotencyKey: string | undefined, key?: string) => paysim.api("POST", "/v1/payment_intents", { body, idempotencyKey, key });
const intentCount = async (key?: string) => (await paysim.api("GET", "/v1/payment_intents?limit=100", { key })).body.data.length as number;

describe("Idempotency-Key on POST /v1/payment_intents", () => {
  it("replays the stored answer unchanged: same status, same body, the original request_id, Idempotent-Replayed: true, no event", async () => {
    const key = freshKey();
    const first = await create({ amount: 1500, description: "once" }, key);
    expect(first.status).toBe(201);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    const before = await newestEventId(paysim);
    const count = await intentCount();

    const replay = await create({ amount: 1500, description: "once" }, key);
    expect(replay.status).toBe(201);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.text).toBe(first.text);
    expect(replay.body.request_id).toBe(first.body.request_id);
    expect(replay.headers.get("request-id")).toMatch(/^req_/);
    expect(replay.headers.get("request-id")).not.toBe(first.body.request_id);
    expect(await newestEventId(paysim)).toBe(before);
    expect(await intentCount()).toBe(count);
  });

  it("creates exactly one payment_intent.created event for a key used three times", async () => {
    const before = await newestEventId(paysim);
    const key = freshKey();
    const answers = [await create({ amount: 42 }, key), await create({ amount: 42 }, key), await create({ amount: 42 }, key)];
    const events = await eventsSince(paysim, before);
    expect(events.map((e) => e.type)).toEqual(["payment_intent.created"]);
    expect(events[0].data.id).toBe(answers[0]!.body.id);
    expect(new Set(answers.map((a) => a.body.id)).size).toBe(1);
  });

  it("refuses the same key with a different body: 409 idempotency_conflict, nothing created", async () => {
    const key = freshKey();
    const first = await create({ amount: 1000 }, key);
    const before = await newestEventId(paysim);
    const count = await intentCount();
    const conflict = await create({ amount: 2000 }, key);
    expectApiError(conflict, 409, "idempotency_conflict");
    expect(conflict.headers.get("idempotent-replayed")).toBeNull();
    expect(await newestEventId(paysim)).toBe(before);
    expect(await intentCount()).toBe(count);
    // The key still holds the first answer.
    expect((await create({ amount: 1000 }, key)).body.id).toBe(first.body.id);
  });

  it.each([
    [{ amount: 1000 }, { amount: 1000, currency: "EUR" }],
    [
      { amount: 1000, description: "a" },
      { amount: 1000, description: "b" },
    ],
    [{ amount: 1000 }, {}],
  ])("treats %j and %j as different bodies (409)", async (a, b) => {
    const key = freshKey();
    expect((await create(a, key)).status).toBe(201);
    expectApiError(await create(b, key), 409, "idempotency_conflict");
  });

  it("ignores key order in the body: the same fingerprint replays", async () => {
    const key = freshKey();
    const first = await paysim.api("POST", "/v1/payment_intents", {
      raw: '{"amount":1000,"currency":"EUR","description":"order","capture_method":"manual"}',
      contentType: "application/json",
      idempotencyKey: key,
    });
    const reordered = await paysim.api("POST", "/v1/payment_intents", {
      raw: '{ "capture_method": "manual", "description": "order", "currency": "EUR", "amount": 1000 }',
      contentType: "application/json",
      idempotencyKey: key,
    });
    expect(first.status).toBe(201);
    expect(reordered.headers.get("idempotent-replayed")).toBe("true");
    expect(reordered.body.id).toBe(first.body.id);
  });

  it("fingerprints the masked body: two PANs that mask alike replay, and no PAN is needed to tell them apart", async () => {
    const key = freshKey();
    const first = await create({ amount: 1000, description: "card 4242424242424242" }, key);
    const second = await create({ amount: 1000, description: "card 4000056655664242" }, key);
    expect(first.body.description).toBe("card ************4242");
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    expect(second.body.id).toBe(first.body.id);
  });

  it("stores only successful answers: a refused request leaves the key free", async () => {
    const key = freshKey();
    expectApiError(await create({ amount: -1 }, key), 400, "invalid_request", "amount");
    expectApiError(await create({ amount: -1 }, key), 400, "invalid_request", "amount");
    const created = await create({ amount: 1 }, key);
    expect(created.status).toBe(201);
    expect(created.headers.get("idempotent-replayed")).toBeNull();
  });

  it("scopes keys per company: the same key in two companies makes two objects", async () => {
    const key = freshKey();
    const inA = await create({ amount: 1000 }, key, KEY_A);
    const inB = await create({ amount: 1000 }, key, KEY_B);
    expect(inA.status).toBe(201);
    expect(inB.status).toBe(201);
    expect(inB.headers.get("idempotent-replayed")).toBeNull();
    expect(inB.body.id).not.toBe(inA.body.id);
    expect(inA.body.currency).toBe("EUR");
    expect(inB.body.currency).toBe("USD");
    // A different body under the same key in the other company is no conflict either.
    expect((await create({ amount: 5 }, freshKey(), KEY_B)).status).toBe(201);
  });

  it("scopes keys per path: a creation key reused on a cancel is a new operation", async () => {
    const key = freshKey();
    const intent = (await create({ amount: 1000 }, key)).body;
    const cancel = await paysim.api("POST", `/v1/payment_intents/${intent.id}/cancel`, { idempotencyKey: key });
    expect(cancel.status).toBe(200);
    expect(cancel.headers.get("idempotent-replayed")).toBeNull();
    expect(cancel.body.state).toBe("canceled");
  });

  it("requires the key: missing → 400 with param Idempotency-Key, nothing created", async () => {
    const count = await intentCount();
    const response = await create({ amount: 1000 }, undefined);
    expectApiError(response, 400, "invalid_request", "Idempotency-Key");
    expect(await intentCount()).toBe(count);
  });

  it.each([
    ["256 characters", "k".repeat(256)],
    ["empty", ""],
    ["non-ASCII (Latin-1 é)", "clé-1"],
  ])("refuses a malformed key (%s) with param Idempotency-Key", async (_name, key) => {
    const response = await create({ amount: 1000 }, key);
    expectApiError(response, 400, "invalid_request", "Idempotency-Key");
  });

  it("accepts a key of exactly 255 printable ASCII characters, spaces and symbols included", async () => {
    const key = `${"k".repeat(241)} ~!@#$%^&*()_+`;
    expect(key).toHaveLength(255);
    const response = await create({ amount: 1000 }, key);
    expect(response.status).toBe(201);
  });

  it("makes exactly one object and one event from 25 concurrent identical creations", async () => {
    const key = freshKey();
    const before = await newestEventId(paysim);
    const count = await intentCount();
    const answers = await Promise.all(Array.from({ length: 25 }, () => create({ amount: 2500, description: "race" }, key)));
    expect(answers.map((a) => a.status)).toEqual(Array(25).fill(201));
    expect(new Set(answers.map((a) => a.body.id)).size).toBe(1);
    expect(new Set(answers.map((a) => a.body.request_id)).size).toBe(1);
    expect(answers.filter((a) => a.headers.get("idempotent-replayed") === "true")).toHaveLength(24);
    expect(await intentCount()).toBe(count + 1);
    const events = await eventsSince(paysim, before);
    expect(events.map((e) => [e.type, e.data.id])).toEqual([["payment_intent.created", answers[0]!.body.id]]);
  });
});

describe("the optional Idempotency-Key on authorize, capture and cancel", () => {
  it.each([
    ["authorize", "created", "authorized"],
    ["capture", "authorized", "captured"],
    ["cancel", "created", "canceled"],
  ] as const)("replays %s: the second call answers the first's 200 instead of refusing the move", async (call, from, to) => {
    const intent = await createIntent(paysim, { amount: 1000, capture_method: "manual" });
    if (from === "authorized") await paysim.api("POST", `/v1/payment_intents/${intent.id}/authorize`);
    const key = freshKey();
    const first = await paysim.api("POST", `/v1/payment_intents/${intent.id}/${call}`, { idempotencyKey: key });
    expect(first.status).toBe(200);
    expect(first.body.state).toBe(to);
    const before = await newestEventId(paysim);
    const replay = await paysim.api("POST", `/v1/payment_intents/${intent.id}/${call}`, { idempotencyKey: key });
    expect(replay.status).toBe(200);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.text).toBe(first.text);
    expect(await newestEventId(paysim)).toBe(before);
    // Without the key the same call is a new move, which the state machine refuses.
    expectApiError(await paysim.api("POST", `/v1/payment_intents/${intent.id}/${call}`), 400, "invalid_request");
  });

  it("refuses the same authorize key with another payment_method: 409", async () => {
    const intent = await createIntent(paysim, { amount: 1000, capture_method: "manual" });
    const key = freshKey();
    await paysim.api("POST", `/v1/payment_intents/${intent.id}/authorize`, { body: { payment_method: "pm_card_visa" }, idempotencyKey: key });
    const conflict = await paysim.api("POST", `/v1/payment_intents/${intent.id}/authorize`, {
      body: { payment_method: "pm_card_mastercard" },
      idempotencyKey: key,
    });
    expectApiError(conflict, 409, "idempotency_conflict");
  });

  it("keeps a key used on a refused move free: the same key works once the move is allowed", async () => {
    const intent = await createIntent(paysim, { amount: 1000, capture_method: "manual" });
    const key = freshKey();
    expectApiError(await paysim.api("POST", `/v1/payment_intents/${intent.id}/capture`, { idempotencyKey: key }), 400, "invalid_request");
    await paysim.api("POST", `/v1/payment_intents/${intent.id}/authorize`);
    const captured = await paysim.api("POST", `/v1/payment_intents/${intent.id}/capture`, { idempotencyKey: key });
    expect(captured.status).toBe(200);
    expect(captured.headers.get("idempotent-replayed")).toBeNull();
  });

  it("refuses a malformed optional key with param Idempotency-Key", async () => {
    const intent = await createIntent(paysim, { amount: 1000, capture_method: "manual" });
    const response = await paysim.api("POST", `/v1/payment_intents/${intent.id}/cancel`, { idempotencyKey: "x".repeat(256) });
    expectApiError(response, 400, "invalid_request", "Idempotency-Key");
    expect((await paysim.api("GET", `/v1/payment_intents/${intent.id}`)).body.state).toBe("created");
  });
});

describe("the 24-hour replay window, on the virtual clock", () => {
  const thisSuite = suiteScope();
  let windowed: TestPaysim;
  beforeAll(async () => {
    windowed = await usePaysimApp({}, thisSuite);
  });

  const advance = async (seconds: number) => {
    const response = await windowed.api("POST", "/v1/sandbox/clock/advance", { body: { seconds } });
    expect(response.status).toBe(200);
  };

  it("still replays at 86399 s, frees the key at 86400 s, and then holds the new answer", async () => {
    const key = freshKey();
    const post = () => windowed.api("POST", "/v1/payment_intents", { body: { amount: 1000 }, idempotencyKey: key });
    const first = await post();
    expect(first.status).toBe(201);

    await advance(86_399);
    const stillReplayed = await post();
    expect(stillReplayed.headers.get("idempotent-replayed")).toBe("true");
    expect(stillReplayed.body.id).toBe(first.body.id);

    await advance(1);
    const before = await newestEventId(windowed);
    const fresh = await post();
    expect(fresh.status).toBe(201);
    expect(fresh.headers.get("idempotent-replayed")).toBeNull();
    expect(fresh.body.id).not.toBe(first.body.id);
    expect((await eventsSince(windowed, before)).map((e) => e.type)).toEqual(["payment_intent.created"]);

    const replayOfFresh = await post();
    expect(replayOfFresh.body.id).toBe(fresh.body.id);
    expect(replayOfFresh.headers.get("idempotent-replayed")).toBe("true");
  });

  it("lets an expired key take a different body without a conflict", async () => {
    const key = freshKey();
    await windowed.api("POST", "/v1/payment_intents", { body: { amount: 1000 }, idempotencyKey: key });
    await advance(86_400);
    const other = await windowed.api("POST", "/v1/payment_intents", { body: { amount: 2000 }, idempotencyKey: key });
    expect(other.status).toBe(201);
    expect(other.body.amount).toBe(2000);
  });
});

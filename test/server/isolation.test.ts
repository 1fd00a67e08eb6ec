import { beforeAll, describe, expect, it } from "vitest";
import { suiteScope, usePaysimApp } from "../helpers/disposables.js";
import { expectApiError } from "../helpers/errors.js";
import { createIntent, eventsSince, freshKey, newestEventId, type TestPaysim } from "../helpers/paysim.js";

const KEY_A = "sk_test_isolation_a_0001";
const KEY_B = "sk_test_isolation_b_0001";

const thisFile = suiteScope();
let paysim: TestPaysim;
/** A's intents, one per state it can be left in. */
const ofA: Record<string, any> = {};
let eventsOfA: any[];

beforeAll(async () => {
  paysim = await usePaysimApp(
    {
      config: {
        companies: [
          { name: "Company A", currency: "EUR", secret_key: KEY_A, webhook_endpoints: [] },
          { name: "Company B", currency: "GBP", secret_key: KEY_B, webhook_endpoints: [] },
        ],
      },
    },
    thisFile,
  );
  const manual = { amount: 1000, capture_method: "manual" };
  ofA.created = await createIntent(paysim, manual, KEY_A);
  ofA.authorized = await createIntent(paysim, manual, KEY_A);
  await paysim.api("POST", `/v1/payment_intents/${ofA.authorized.id}/authorize`, { key: KEY_A });
  ofA.captured = await createIntent(paysim, { amount: 2000 }, KEY_A);
  await paysim.api("POST", `/v1/payment_intents/${ofA.captured.id}/authorize`, { key: KEY_A });
  // B has objects of its own, so that its lists are not trivially empty.
  await createIntent(paysim, { amount: 300 }, KEY_B);
  await createIntent(paysim, { amount: 400, capture_method: "manual" }, KEY_B);
  eventsOfA = await eventsSince(paysim, undefined, KEY_A);
  for (const state of ["created", "authorized", "captured"]) {
    ofA[state] = (await paysim.api("GET", `/v1/payment_intents/${ofA[state].id}`, { key: KEY_A })).body;
  }
});

const asB = (method: string, path: string, call: { body?: unknown; idempotencyKey?: string } = {}) => paysim.api(method, path, { ...call, key: KEY_B });
const UNKNOWN_PI = "pi_ZZZZZZZZZZZZZZZZZZZZZZZZ";
const UNKNOWN_EVT = "evt_ZZZZZZZZZZZZZZZZZZZZZZZZ";

/** The answer with the id and request id taken out: what must be the same for "someone else's" and "unknown". */
const shapeOf = (response: { status: number; body: any }, id: string) => ({
  status: response.status,
  body: JSON.parse(JSON.stringify({ ...response.body, request_id: "req" }).replaceAll(id, "<id>")),
});

describe("company B's key against company A's payment intents", () => {
  it("reads the two companies' keys as the two companies", async () => {
    expect(ofA.created.currency).toBe("EUR");
    const ownOfB = await createIntent(paysim, { amount: 1 }, KEY_B);
    expect(ownOfB.currency).toBe("GBP");
  });

  it.each(["created", "authorized", "captured"])("GET of A's %s intent answers 404 exactly as an unknown id does", async (state) => {
    const id = ofA[state].id;
    const theirs = await asB("GET", `/v1/payment_intents/${id}`);
    const unknown = await asB("GET", `/v1/payment_intents/${UNKNOWN_PI}`);
    expectApiError(theirs, 404, "not_found");
    expect(shapeOf(theirs, id)).toEqual(shapeOf(unknown, UNKNOWN_PI));
  });

  it.each([
    ["authorize", "created", undefined],
    ["authorize", "created", { payment_method: "pm_card_declined" }],
    ["cancel", "created", undefined],
    ["capture", "authorized", undefined],
    ["cancel", "authorized", undefined],
    ["capture", "captured", undefined],
  ] as const)("POST %s on A's %s intent (body %j) answers 404 as for an unknown id", async (call, state, body) => {
    const id = ofA[state].id;
    const theirs = await asB("POST", `/v1/payment_intents/${id}/${call}`, { body });
    const unknown = await asB("POST", `/v1/payment_intents/${UNKNOWN_PI}/${call}`, { body });
    expectApiError(theirs, 404, "not_found");
    expect(shapeOf(theirs, id)).toEqual(shapeOf(unknown, UNKNOWN_PI));
  });

  it("answers 404 to a move on A's intent even with an Idempotency-Key", async () => {
    const response = await asB("POST", `/v1/payment_intents/${ofA.created.id}/cancel`, { idempotencyKey: freshKey() });
    expectApiError(response, 404, "not_found");
  });

  it("never lists A's intents, whatever the filter", async () => {
    const idsOfA = new Set(Object.values(ofA).map((pi) => pi.id));
    for (const query of ["?limit=100", "?state=created&limit=100", "?state=authorized&limit=100", "?state=captured&limit=100"]) {
      const response = await asB("GET", `/v1/payment_intents${query}`);
      expect(response.status).toBe(200);
      expect(response.body.data.filter((pi: any) => idsOfA.has(pi.id))).toEqual([]);
    }
    const all = await asB("GET", "/v1/payment_intents?limit=100");
    expect(all.body.data.length).toBeGreaterThanOrEqual(2);
    expect(all.body.data.every((pi: any) => pi.currency === "GBP")).toBe(true);
  });

  it("refuses A's intent as a list cursor exactly as an unknown id (400 starting_after)", async () => {
    const theirs = await asB("GET", `/v1/payment_intents?starting_after=${ofA.created.id}`);
    const unknown = await asB("GET", `/v1/payment_intents?starting_after=${UNKNOWN_PI}`);
    expectApiError(theirs, 400, "invalid_request", "starting_after");
    expect(shapeOf(theirs, ofA.created.id)).toEqual(shapeOf(unknown, UNKNOWN_PI));
  });
});

describe("company B's key against company A's events", () => {
  it("has seen A make events to hide", () => {
    expect(eventsOfA.map((e) => e.type)).toContain("payment_intent.captured");
  });

  it("never lists A's events, whatever the type filter", async () => {
    const idsOfA = new Set(eventsOfA.map((e) => e.id));
    for (const query of ["?limit=100", "?type=payment_intent.created&limit=100", "?type=payment_intent.captured&limit=100"]) {
      const response = await asB("GET", `/v1/events${query}`);
      expect(response.status).toBe(200);
      expect(response.body.data.filter((e: any) => idsOfA.has(e.id))).toEqual([]);
    }
    const ofB = await eventsSince(paysim, undefined, KEY_B);
    expect(ofB.every((e) => e.data.currency === "GBP")).toBe(true);
  });

  it.each([0, 1, 2])("reads A's event #%i by id as 404, exactly as an unknown event", async (index) => {
    const id = eventsOfA[index].id;
    const theirs = await asB("GET", `/v1/events/${id}`);
    const unknown = await asB("GET", `/v1/events/${UNKNOWN_EVT}`);
    expectApiError(theirs, 404, "not_found");
    expect(shapeOf(theirs, id)).toEqual(shapeOf(unknown, UNKNOWN_EVT));
  });

  it("refuses A's event as an events cursor (400 starting_after)", async () => {
    const response = await asB("GET", `/v1/events?starting_after=${eventsOfA[0].id}`);
    expectApiError(response, 400, "invalid_request", "starting_after");
  });
});

describe("after all of B's attempts", () => {
  it("A's intents and events are exactly as they were", async () => {
    for (const state of ["created", "authorized", "captured"]) {
      const now = await paysim.api("GET", `/v1/payment_intents/${ofA[state].id}`, { key: KEY_A });
      expect({ ...now.body, request_id: "" }).toEqual({ ...ofA[state], request_id: "" });
    }
    expect(await newestEventId(paysim, KEY_A)).toBe(eventsOfA.at(-1).id);
    expect((await eventsSince(paysim, undefined, KEY_A)).map((e) => e.id)).toEqual(eventsOfA.map((e) => e.id));
  });

  it("A still reads its own objects with its own key", async () => {
    const response = await paysim.api("GET", `/v1/events/${eventsOfA[0].id}`, { key: KEY_A });
    expect(response.status).toBe(200);
    expect(response.body.id).toBe(eventsOfA[0].id);
  });
});

import { beforeAll, describe, expect, it } from "vitest";
import { suiteScope, usePaysimApp } from "../helpers/disposables.js";
import { expectApiError } from "../helpers/errors.js";
import { createIntent, eventsSince, newestEventId, type TestPaysim } from "../helpers/paysim.js";

const thisFile = suiteScope();
let paysim: TestPaysim;
beforeAll(async () => {
  paysim = await usePaysimApp({}, thisFile);
});

type State = "created" | "authorized" | "captured" | "canceled" | "failed";
type Call = "authorize" | "capture" | "cancel";

const post = (id: string, call: Call, body?: object) => paysim.api("POST", `/v1/payment_intents/${id}/${call}`, { body });
const read = async (id: string) => (await paysim.api("GET", `/v1/payment_intents/${id}`)).body;

/** A manual-capture intent brought into `state` through the API. */
async function intentIn(state: State): Promise<any> {
  const intent = await createIntent(paysim, { amount: 1234, capture_method: "manual" });
  const steps: Record<State, [Call, object?][]> = {
    created: [],
    authorized: [["authorize"]],
    captured: [["authorize"], ["capture"]],
    canceled: [["cancel"]],
    failed: [["authorize", { payment_method: "pm_card_declined" }]],
  };
  for (const [call, body] of steps[state]) {
    const response = await post(intent.id, call, body);
    if (response.status !== 200) throw new Error(`${call} answered ${response.status}: ${response.text}`);
  }
  const current = await read(intent.id);
  expect(current.state).toBe(state);
  return current;
}

/** Performs one call and returns its answer with the events it emitted. */
async function act(id: string, call: Call, body?: object) {
  const before = await newestEventId(paysim);
  const response = await post(id, call, body);
  return { response, events: await eventsSince(paysim, before) };
}

describe("allowed payment intent moves over HTTP", () => {
  it("authorizes a manual intent with the default method: created → authorized, card visa 4242", async () => {
    const intent = await intentIn("created");
    const { response, events } = await act(intent.id, "authorize");
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ id: intent.id, state: "authorized", card: { last4: "4242", brand: "visa" }, failure_reason: null });
    expect(events.map((e) => e.type)).toEqual(["payment_intent.authorized"]);
    expect(events[0].request_id).toBe(response.body.request_id);
    expect(events[0].data).toMatchObject({ id: intent.id, state: "authorized", card: { last4: "4242", brand: "visa" } });
  });

  it("authorizes with pm_card_mastercard: card mastercard 4444", async () => {
    const intent = await intentIn("created");
    const { response } = await act(intent.id, "authorize", { payment_method: "pm_card_mastercard" });
    expect(response.body).toMatchObject({ state: "authorized", card: { last4: "4444", brand: "mastercard" } });
  });

  it("authorizes and captures at once when the capture method is automatic, emitting both events for the one request", async () => {
    const intent = await createIntent(paysim, { amount: 900 });
    const { response, events } = await act(intent.id, "authorize", { payment_method: "pm_card_visa" });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ state: "captured", capture_method: "automatic", card: { last4: "4242", brand: "visa" } });
    expect(events.map((e) => e.type)).toEqual(["payment_intent.authorized", "payment_intent.captured"]);
    expect(events.map((e) => e.request_id)).toEqual([response.body.request_id, response.body.request_id]);
    expect(events.map((e) => e.data.state)).toEqual(["authorized", "captured"]);
  });

  it.each([
    ["pm_card_declined", "card_declined", "0002"],
    ["pm_card_insufficient_funds", "insufficient_funds", "9995"],
  ])("fails the intent on %s: created → failed with failure_reason %s and the card set", async (method, reason, last4) => {
    const intent = await intentIn("created");
    const { response, events } = await act(intent.id, "authorize", { payment_method: method });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ state: "failed", failure_reason: reason, card: { last4, brand: "visa" } });
    expect(events.map((e) => e.type)).toEqual(["payment_intent.failed"]);
    expect(events[0].data).toMatchObject({ state: "failed", card: { last4, brand: "visa" } });
    expect(await read(intent.id)).toMatchObject({ state: "failed", failure_reason: reason });
  });

  it("fails an automatic-capture intent on a declining method without capturing", async () => {
    const intent = await createIntent(paysim, { amount: 900 });
    const { response, events } = await act(intent.id, "authorize", { payment_method: "pm_card_declined" });
    expect(response.body.state).toBe("failed");
    expect(events.map((e) => e.type)).toEqual(["payment_intent.failed"]);
  });

  it("captures an authorized intent: authorized → captured", async () => {
    const intent = await intentIn("authorized");
    const { response, events } = await act(intent.id, "capture");
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ state: "captured", card: { last4: "4242", brand: "visa" } });
    expect(events.map((e) => e.type)).toEqual(["payment_intent.captured"]);
    expect(events[0].request_id).toBe(response.body.request_id);
  });

  it("cancels a created intent: created → canceled, card stays null", async () => {
    const intent = await intentIn("created");
    const { response, events } = await act(intent.id, "cancel");
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ state: "canceled", card: null, failure_reason: null });
    expect(events.map((e) => e.type)).toEqual(["payment_intent.canceled"]);
    expect(events[0].data.card).toBeNull();
  });

  it("cancels an authorized intent: authorized → canceled, keeping the card", async () => {
    const intent = await intentIn("authorized");
    const { response, events } = await act(intent.id, "cancel");
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ state: "canceled", card: { last4: "4242", brand: "visa" } });
    expect(events.map((e) => e.type)).toEqual(["payment_intent.canceled"]);
  });

  it("moves updated_at forward and keeps created_at", async () => {
    const intent = await intentIn("created");
    const { response } = await act(intent.id, "cancel");
    expect(response.body.created_at).toBe(intent.created_at);
    expect(Date.parse(response.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(intent.updated_at));
  });

  it("answers a move with the same object a later read shows", async () => {
    const intent = await intentIn("authorized");
    const { response } = await act(intent.id, "capture");
    const { request_id: _requestId, ...moved } = response.body;
    const { request_id: _readId, ...readBack } = await read(intent.id);
    expect(moved).toEqual(readBack);
  });
});

/** Every call the table refuses from each state, as the API sees them. */
const REFUSED: [State, Call, object | undefined][] = [
  ["created", "capture", undefined],
  ["authorized", "authorize", undefined],
  ["authorized", "authorize", { payment_method: "pm_card_declined" }],
  ["captured", "authorize", undefined],
  ["captured", "authorize", { payment_method: "pm_card_declined" }],
  ["captured", "capture", undefined],
  ["captured", "cancel", undefined],
  ["canceled", "authorize", undefined],
  ["canceled", "authorize", { payment_method: "pm_card_declined" }],
  ["canceled", "capture", undefined],
  ["canceled", "cancel", undefined],
  ["failed", "authorize", undefined],
  ["failed", "authorize", { payment_method: "pm_card_insufficient_funds" }],
  ["failed", "capture", undefined],
  ["failed", "cancel", undefined],
];

describe("refused payment intent moves over HTTP", () => {
  it.each(REFUSED)("refuses %s → %s (body %j) with 400 invalid_request, changing nothing, emitting nothing", async (state, call, body) => {
    const intent = await intentIn(state);
    const before = await newestEventId(paysim);
    const response = await post(intent.id, call, body);
    expectApiError(response, 400, "invalid_request");
    expect(response.body.error.message).toContain(`"${state}"`);
    expect(response.body.error.param).toBeUndefined();
    expect(await read(intent.id)).toEqual({ ...intent, request_id: expect.any(String) });
    expect(await newestEventId(paysim)).toBe(before);
  });
});

describe("bad input on the move calls", () => {
  it("refuses an unknown payment_method with param payment_method, changing nothing", async () => {
    const intent = await intentIn("created");
    const before = await newestEventId(paysim);
    const response = await post(intent.id, "authorize", { payment_method: "pm_card_unknown" });
    expectApiError(response, 400, "invalid_request", "payment_method");
    expect(response.body.error.message).toContain("pm_card_visa");
    expect((await read(intent.id)).state).toBe("created");
    expect(await newestEventId(paysim)).toBe(before);
  });

  it.each([[42], [null], [true], [{ id: "pm_card_visa" }]])("refuses payment_method %j with param payment_method", async (value) => {
    const intent = await intentIn("created");
    const response = await post(intent.id, "authorize", { payment_method: value });
    expectApiError(response, 400, "invalid_request", "payment_method");
    expect((await read(intent.id)).state).toBe("created");
  });

  it.each([
    ["authorize", { payment_method: "pm_card_visa", amount: 5 }, "amount"],
    ["capture", { amount: 5 }, "amount"],
    ["cancel", { reason: "duplicate" }, "reason"],
  ] as const)("refuses an unknown field on %s naming it", async (call, body, param) => {
    const intent = await intentIn(call === "capture" ? "authorized" : "created");
    const response = await post(intent.id, call, body);
    expectApiError(response, 400, "invalid_request", param);
    expect(await read(intent.id)).toEqual({ ...intent, request_id: expect.any(String) });
  });

  it("accepts an empty JSON object as the body of capture and cancel", async () => {
    const authorized = await intentIn("authorized");
    expect((await post(authorized.id, "capture", {})).body.state).toBe("captured");
    const created = await intentIn("created");
    expect((await post(created.id, "cancel", {})).body.state).toBe("canceled");
  });

  it.each(["authorize", "capture", "cancel"] as const)("answers 404 not_found to %s of an unknown id", async (call) => {
    const response = await post("pi_ZZZZZZZZZZZZZZZZZZZZZZZZ", call);
    expectApiError(response, 404, "not_found");
  });
});

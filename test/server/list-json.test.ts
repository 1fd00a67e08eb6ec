import { beforeAll, describe, expect, it } from "vitest";
import { suiteScope, usePaysimApp } from "../helpers/disposables.js";
import { freshKey, type ApiResponse, type TestPaysim } from "../helpers/paysim.js";

// Lists are built by SQLite (`json_object`), reads by id and the answers of
// changes in TypeScript, both from one field list (src/store/resource-shape.ts).
// These tests hold them to the same bytes, for every shape a resource can take
// and for text that needs escaping.

const thisFile = suiteScope();
let paysim: TestPaysim;

/** Every character JSON must escape, and some it must not. */
const AWKWARD_TEXTS = [
  "plain",
  "",
  `quote " backslash \\ slash /`,
  Array.from({ length: 32 }, (_, code) => String.fromCharCode(code)).join(""),
  "del \u007f, line sep \u2028, para sep \u2029",
  "accents éàü, CJK 支付, emoji 💳🇫🇷",
  "<script>alert(1)</script> & 'single'",
];

beforeAll(async () => {
  paysim = await usePaysimApp({ payouts: "manual" }, thisFile);
});

/** An answer's text without its request_id member: the resource's own text. */
function resourceText(response: ApiResponse): string {
  const member = `,"request_id":${JSON.stringify(response.body.request_id)}}`;
  expect(response.text.endsWith(member)).toBe(true);
  return `${response.text.slice(0, -member.length)}}`;
}

/** The text a read by id answers, without its request_id: what a list must show for it. */
async function readText(path: string): Promise<string> {
  const response = await paysim.api("GET", path);
  expect(response.status).toBe(200);
  return resourceText(response);
}

/**
 * The list's whole text equals the envelope around the reads' texts, newest
 * first; and each read's text equals the text the object's last change (its
 * creation or a move) answered with.
 */
async function expectListOfReads(listPath: string, answered: Map<string, string>, resourcePath: string, hasMore = false): Promise<void> {
  const ids = [...answered.keys()].reverse();
  const response = await paysim.api("GET", listPath);
  expect(response.status).toBe(200);
  const items = await Promise.all(ids.map((id) => readText(`${resourcePath}/${id}`)));
  for (const [i, id] of ids.entries()) expect(items[i]).toBe(answered.get(id));
  expect(response.text).toBe(`{"object":"list","data":[${items.join(",")}],"has_more":${hasMore},"request_id":${JSON.stringify(response.body.request_id)}}`);
}

describe("list texts are the read-by-id texts and the texts a change answered with", () => {
  it("payment intents: every state, with and without a card or failure, and text that needs escaping", async () => {
    /** Each intent's id and the text its last change answered with, oldest first. */
    const answered = new Map<string, string>();
    const create = async (body: object) => {
      const response = await paysim.api("POST", "/v1/payment_intents", { body, idempotencyKey: freshKey() });
      expect(response.status).toBe(201);
      answered.set(response.body.id, resourceText(response));
      return response.body.id as string;
    };
    const act = async (id: string, action: string, body: object) => {
      const response = await paysim.api("POST", `/v1/payment_intents/${id}/${action}`, { body, idempotencyKey: freshKey() });
      expect(response.status).toBe(200);
      answered.set(id, resourceText(response));
    };
    for (const description of AWKWARD_TEXTS) await create({ amount: 1234, currency: "EUR", description });
    await create({ amount: 1 }); // no description: null
    const moves: [string, string, object][] = [
      ["automatic", "authorize", { payment_method: "pm_card_visa" }], // card, captured at once
      ["manual", "authorize", { payment_method: "pm_card_declined" }], // failure_reason
      ["manual", "cancel", {}],
    ];
    for (const [capture_method, action, body] of moves) {
      await act(await create({ amount: 500, currency: "USD", capture_method }), action, body);
    }
    const manual = await create({ amount: 700, capture_method: "manual" });
    await act(manual, "authorize", { payment_method: "pm_card_mastercard" }); // authorized, card kept
    const authorizedThenCanceled = await create({ amount: 800, capture_method: "manual" });
    await act(authorizedThenCanceled, "authorize", { payment_method: "pm_card_visa" });
    await act(authorizedThenCanceled, "cancel", {}); // canceled, card kept

    const reads = await Promise.all([...answered.keys()].map((id) => paysim.api("GET", `/v1/payment_intents/${id}`)));
    expect(new Set(reads.map((read) => read.body.state))).toEqual(new Set(["created", "captured", "failed", "canceled", "authorized"]));
    expect(reads.some((read) => read.body.card !== null && read.body.failure_reason === null)).toBe(true);
    expect(reads.some((read) => read.body.card !== null && read.body.state === "canceled")).toBe(true);
    expect(reads.some((read) => read.body.failure_reason !== null)).toBe(true);
    await expectListOfReads(`/v1/payment_intents?limit=100`, answered, "/v1/payment_intents");
    const newestTwo = new Map([...answered].slice(-2));
    await expectListOfReads(`/v1/payment_intents?limit=2`, newestTwo, "/v1/payment_intents", true);
  });

  it("payouts: every status, failure and reversed amount, and text that needs escaping", async () => {
    const answered = new Map<string, string>();
    const create = async (body: object) => {
      const response = await paysim.api("POST", "/v1/payouts", { body, idempotencyKey: freshKey() });
      expect(response.status).toBe(201);
      answered.set(response.body.id, resourceText(response));
      return response.body.id as string;
    };
    const move = async (id: string, to: string, amount?: number) => {
      const response = await paysim.api("POST", `/v1/sandbox/payouts/${id}/transition`, { body: { to, ...(amount === undefined ? {} : { amount }) } });
      expect(response.status).toBe(200);
      answered.set(id, resourceText(response));
    };
    for (const description of AWKWARD_TEXTS) {
      await create({ amount: 5000, currency: "EUR", destination_type: "account", destination_token: "tok_account_fr", description });
    }
    const card = { amount: 100, currency: "EUR", destination_type: "card", destination_token: "tok_card_visa" };
    const paths: Record<string, [string, number?][]> = {
      processing: [["processing"]],
      succeeded: [["processing"], ["succeeded"]],
      failed: [["failed"]],
      returned: [["returned"]],
      reversed: [["processing"], ["succeeded"], ["reversed"]],
      partially_reversed: [["processing"], ["succeeded"], ["partially_reversed", 30]],
    };
    for (const steps of Object.values(paths)) {
      const id = await create(card);
      for (const [to, amount] of steps) await move(id, to, amount);
    }
    const wallet = await create({ amount: 900, currency: "EUR", destination_type: "wallet", destination_token: "tok_wallet" });
    for (const to of ["processing", "succeeded"]) await move(wallet, to);
    await move(wallet, "partially_reversed", 300);

    const reads = await Promise.all([...answered.keys()].map((id) => paysim.api("GET", `/v1/payouts/${id}`)));
    expect(new Set(reads.map((read) => read.body.status))).toEqual(
      new Set(["pending", "processing", "succeeded", "failed", "returned", "reversed", "partially_reversed"]),
    );
    await expectListOfReads("/v1/payouts?limit=100", answered, "/v1/payouts");
  });

  it("events: each listed event is its stored body, as a read shows it before its deliveries", async () => {
    const response = await paysim.api("GET", "/v1/events?limit=5");
    expect(response.status).toBe(200);
    expect(response.body.data).toHaveLength(5);
    const listed = (response.body.data as { id: string }[]).map((event) => JSON.stringify(event));
    expect(response.text).toBe(`{"object":"list","data":[${listed.join(",")}],"has_more":true,"request_id":${JSON.stringify(response.body.request_id)}}`);
    for (const [i, event] of (response.body.data as { id: string }[]).entries()) {
      const read = await paysim.api("GET", `/v1/events/${event.id}`);
      expect(read.text.startsWith(`${listed[i]!.slice(0, -1)},"deliveries":`)).toBe(true);
    }
  });
});

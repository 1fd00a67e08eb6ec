import { beforeAll, describe, expect, it } from "vitest";
import { suiteScope, usePaysim } from "../helpers/disposables.js";
import { createIntent, freshKey, type TestPaysim } from "../helpers/paysim.js";

// Lists are built by SQLite (`json_object`), reads by id in TypeScript (each
// service's toResource). These tests hold the two to the same bytes, for every
// shape a resource can take and for text that needs escaping.

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
  paysim = await usePaysim({ payouts: "manual" }, thisFile);
});

/** The text a read by id answers, without its request_id: what a list must show for it. */
async function readText(path: string): Promise<string> {
  const response = await paysim.api("GET", path);
  expect(response.status).toBe(200);
  const member = `,"request_id":${JSON.stringify(response.body.request_id)}}`;
  expect(response.text.endsWith(member)).toBe(true);
  return `${response.text.slice(0, -member.length)}}`;
}

/** The list's whole text equals the envelope around the reads' texts, newest first. */
async function expectListOfReads(listPath: string, itemPaths: string[], hasMore = false): Promise<void> {
  const response = await paysim.api("GET", listPath);
  expect(response.status).toBe(200);
  const items = await Promise.all([...itemPaths].reverse().map(readText));
  expect(response.text).toBe(
    `{"object":"list","data":[${items.join(",")}],"has_more":${hasMore},"request_id":${JSON.stringify(response.body.request_id)}}`,
  );
}

describe("list texts are the read-by-id texts", () => {
  it("payment intents: every state, with and without a card or failure, and text that needs escaping", async () => {
    const ids: string[] = [];
    for (const description of AWKWARD_TEXTS) ids.push((await createIntent(paysim, { amount: 1234, currency: "EUR", description })).id);
    ids.push((await createIntent(paysim, { amount: 1 })).id); // no description: null
    const moves: [string, string, object][] = [
      ["automatic", "authorize", { payment_method: "pm_card_visa" }], // card, captured at once
      ["manual", "authorize", { payment_method: "pm_card_declined" }], // failure_reason
      ["manual", "cancel", {}],
    ];
    for (const [capture_method, action, body] of moves) {
      const intent = await createIntent(paysim, { amount: 500, currency: "USD", capture_method });
      const response = await paysim.api("POST", `/v1/payment_intents/${intent.id}/${action}`, { body, idempotencyKey: freshKey() });
      expect(response.status).toBe(200);
      ids.push(intent.id);
    }
    const manual = await createIntent(paysim, { amount: 700, capture_method: "manual" });
    await paysim.api("POST", `/v1/payment_intents/${manual.id}/authorize`, { body: { payment_method: "pm_card_mastercard" }, idempotencyKey: freshKey() });
    ids.push(manual.id); // authorized, card kept

    const reads = await Promise.all(ids.map((id) => paysim.api("GET", `/v1/payment_intents/${id}`)));
    expect(new Set(reads.map((read) => read.body.state))).toEqual(new Set(["created", "captured", "failed", "canceled", "authorized"]));
    expect(reads.some((read) => read.body.card !== null && read.body.failure_reason === null)).toBe(true);
    expect(reads.some((read) => read.body.failure_reason !== null)).toBe(true);
    await expectListOfReads(`/v1/payment_intents?limit=100`, ids.map((id) => `/v1/payment_intents/${id}`));
    await expectListOfReads(`/v1/payment_intents?limit=2`, ids.slice(-2).map((id) => `/v1/payment_intents/${id}`), true);
  });

  it("payouts: every shape of status, failure and reversed amount", async () => {
    const create = async (body: object) => {
      const response = await paysim.api("POST", "/v1/payouts", { body, idempotencyKey: freshKey() });
      expect(response.status).toBe(201);
      return response.body.id as string;
    };
    const move = async (id: string, to: string, amount?: number) => {
      const response = await paysim.api("POST", `/v1/sandbox/payouts/${id}/transition`, { body: { to, ...(amount === undefined ? {} : { amount }) } });
      expect(response.status).toBe(200);
    };
    const ids: string[] = [];
    for (const description of AWKWARD_TEXTS) {
      ids.push(await create({ amount: 5000, currency: "EUR", destination_type: "account", destination_token: "tok_account_fr", description }));
    }
    const failed = await create({ amount: 100, currency: "EUR", destination_type: "card", destination_token: "tok_card_visa" });
    await move(failed, "failed");
    const partly = await create({ amount: 900, currency: "EUR", destination_type: "wallet", destination_token: "tok_wallet" });
    for (const to of ["processing", "succeeded"]) await move(partly, to);
    await move(partly, "partially_reversed", 300);
    ids.push(failed, partly);

    await expectListOfReads("/v1/payouts?limit=100", ids.map((id) => `/v1/payouts/${id}`));
  });

  it("events: each listed event is its stored body, as a read shows it before its deliveries", async () => {
    const response = await paysim.api("GET", "/v1/events?limit=5");
    expect(response.status).toBe(200);
    expect(response.body.data).toHaveLength(5);
    const listed = (response.body.data as { id: string }[]).map((event) => JSON.stringify(event));
    expect(response.text).toBe(
      `{"object":"list","data":[${listed.join(",")}],"has_more":true,"request_id":${JSON.stringify(response.body.request_id)}}`,
    );
    for (const [i, event] of (response.body.data as { id: string }[]).entries()) {
      const read = await paysim.api("GET", `/v1/events/${event.id}`);
      expect(read.text.startsWith(`${listed[i]!.slice(0, -1)},"deliveries":`)).toBe(true);
    }
  });
});

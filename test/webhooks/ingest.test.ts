import { existsSync, readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { suiteScope, useReceiver } from "../helpers/disposables.js";
import { expectApiError } from "../helpers/errors.js";
import { freshKey, newestEventId, type TestPaysim } from "../helpers/paysim.js";
import type { Receiver } from "../helpers/receiver.js";
import { eventWithDeliveries, settle, useFrozenPaysim } from "./support.js";

const PANS = ["4242424242424242", "4242 4242 4242 4242", "5555-5555-5555-4444", "4000000000000002", "378282246310005"];
const CVV_MARKER = "CVV-MARKER-0731";

const VALID_DATA = { reference: "PAY-INGEST0001", amount: 2500, currency: "EUR" };

const thisFile = suiteScope();
let paysim: TestPaysim;
let receiver: Receiver;
beforeAll(async () => {
  receiver = await useReceiver(200, thisFile);
  paysim = await useFrozenPaysim({ forwardTo: receiver.url }, thisFile);
});

const ingest = (body: unknown, call: { idempotencyKey?: string; key?: string | null } = {}) =>
  paysim.api("POST", "/v1/sandbox/webhook_ingest", { body, ...call });

describe("POST /v1/sandbox/webhook_ingest", () => {
  it("answers 201 with the event, lists it, and delivers the same bytes to the company's endpoints", async () => {
    const before = receiver.requests.length;
    const response = await ingest({ type: "payout.succeeded", data: { ...VALID_DATA, id: "po_external_0001", status: "succeeded" } });
    expect(response.status, response.text).toBe(201);
    const event = response.body;
    expect(event).toMatchObject({
      id: expect.stringMatching(/^evt_[0-9A-Za-z]{24}$/),
      object: "event",
      type: "payout.succeeded",
      created_at: expect.stringMatching(/Z$/),
      data: { ...VALID_DATA, id: "po_external_0001", status: "succeeded" },
    });
    // The event names the ingest request that caused it.
    expect(event.request_id).toBe(response.headers.get("request-id"));

    const listed = await paysim.api("GET", "/v1/events?limit=1");
    expect(listed.body.data[0].id).toBe(event.id);

    await receiver.waitForRequests(before + 1);
    const delivered = receiver.requests[before]!;
    expect(delivered.headers["service-event-id"]).toBe(event.id);
    const { request_id: _r, ...fields } = event;
    expect(JSON.parse(delivered.body.toString("utf8"))).toEqual({ ...fields, request_id: event.request_id });
    await settle(paysim);
    const shown = await eventWithDeliveries(paysim, event.id);
    expect(shown.deliveries.map((d: any) => d.status)).toEqual(["succeeded"]);
  });

  const refused: [string, unknown, string | undefined][] = [
    ["an unknown type", { type: "payment_intent.paid", data: VALID_DATA }, "type"],
    ["a missing type", { data: VALID_DATA }, "type"],
    ["a type that is not a string", { type: 7, data: VALID_DATA }, "type"],
    ["missing data", { type: "payout.created" }, "data"],
    ["data that is a string", { type: "payout.created", data: "PAY-1" }, "data"],
    ["data that is an array", { type: "payout.created", data: [VALID_DATA] }, "data"],
    ["data.amount as a string", { type: "payout.created", data: { ...VALID_DATA, amount: "2500" } }, "data.amount"],
    ["data.amount zero", { type: "payout.created", data: { ...VALID_DATA, amount: 0 } }, "data.amount"],
    ["data.amount negative", { type: "payout.created", data: { ...VALID_DATA, amount: -1 } }, "data.amount"],
    ["data.amount with a fraction", { type: "payout.created", data: { ...VALID_DATA, amount: 10.5 } }, "data.amount"],
    ["data.amount missing", { type: "payout.created", data: { reference: "PAY-1", currency: "EUR" } }, "data.amount"],
    ["data.amount that looks like a PAN", { type: "payout.created", data: { ...VALID_DATA, amount: 4242424242424242 } }, "data.amount"],
    ["data.currency in lower case", { type: "payout.created", data: { ...VALID_DATA, currency: "eur" } }, "data.currency"],
    ["data.currency missing", { type: "payout.created", data: { reference: "PAY-1", amount: 1 } }, "data.currency"],
    ["data.reference missing", { type: "payout.created", data: { amount: 1, currency: "EUR" } }, "data.reference"],
    ["data.reference not a string", { type: "payout.created", data: { ...VALID_DATA, reference: 12 } }, "data.reference"],
    ["an unknown top-level field", { type: "payout.created", data: VALID_DATA, livemode: false }, "livemode"],
    ["a top-level cvv", { type: "payout.created", data: VALID_DATA, cvv: "123" }, "cvv"],
  ];

  it.each(refused)("refuses %s with 400 invalid_request, records and delivers nothing", async (_, body, param) => {
    const newest = await newestEventId(paysim);
    const received = receiver.requests.length;
    const response = await ingest(body);
    expectApiError(response, 400, "invalid_request", param);
    expect(response.text).not.toContain("4242424242424242");
    expect(await newestEventId(paysim)).toBe(newest);
    await settle(paysim);
    expect(receiver.requests).toHaveLength(received);
  });

  it("refuses a body that is not JSON with 400 invalid_request", async () => {
    const newest = await newestEventId(paysim);
    const response = await paysim.api("POST", "/v1/sandbox/webhook_ingest", { raw: "{type: payout.created", contentType: "application/json" });
    expectApiError(response, 400, "invalid_request");
    expect(await newestEventId(paysim)).toBe(newest);
  });

  it("refuses a request without a key with 401", async () => {
    const response = await ingest({ type: "payout.created", data: VALID_DATA }, { key: null });
    expectApiError(response, 401, "unauthorized");
  });
});

describe("masking of ingested data", () => {
  it("masks every PAN in the ingested data and drops CVVs, in the answer, the delivered body and the database file", async () => {
    const own = await useReceiver(200);
    const fresh = await useFrozenPaysim({ forwardTo: own.url });
    const data = {
      ...VALID_DATA,
      pan: PANS[0],
      card_number: PANS[3],
      note: `paid with ${PANS[1]} and refunded to ${PANS[2]}`,
      card: { number: PANS[4], cvc: CVV_MARKER, exp_month: 12 },
      cvv: CVV_MARKER,
      nested: [{ security_code: CVV_MARKER, label: "x" }],
    };
    const response = await fresh.api("POST", "/v1/sandbox/webhook_ingest", { body: { type: "payment_intent.captured", data }, idempotencyKey: freshKey() });
    expect(response.status, response.text).toBe(201);
    expect(response.body.data).toEqual({
      ...VALID_DATA,
      pan: "************4242",
      card_number: "************0002",
      note: "paid with **** **** **** 4242 and refunded to ****-****-****-4444",
      card: { number: "***********0005", exp_month: 12 },
      nested: [{ label: "x" }],
    });

    const [delivered] = await own.waitForRequests(1);
    const text = delivered!.body.toString("utf8");
    expect(JSON.parse(text).data).toEqual(response.body.data);
    for (const pan of PANS) expect(text).not.toContain(pan);
    expect(text).not.toContain(CVV_MARKER);
    expect(text).not.toMatch(/"(cvv|cvc|security_code)"/);
    await settle(fresh);

    // Written to disk: the database, its WAL and shared memory hold no PAN and no CVV.
    await fresh.close();
    const files = [fresh.dbPath, `${fresh.dbPath}-wal`, `${fresh.dbPath}-shm`].filter(existsSync);
    const bytes = Buffer.concat(files.map((f) => readFileSync(f)));
    expect(bytes.includes(Buffer.from(JSON.parse(text).id))).toBe(true); // the event is in there
    for (const pan of PANS) expect(bytes.includes(Buffer.from(pan)), pan).toBe(false);
    expect(bytes.includes(Buffer.from(CVV_MARKER))).toBe(false);
  });
});

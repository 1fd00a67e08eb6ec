import { beforeAll, describe, expect, it } from "vitest";
import type { PaysimConfig } from "../../src/config.js";
import { suiteScope, useReceiver } from "../helpers/disposables.js";
import { expectApiError } from "../helpers/errors.js";
import type { TestPaysim } from "../helpers/paysim.js";
import type { Receiver } from "../helpers/receiver.js";
import { advance, emitCreatedEvent, eventWithDeliveries, settle, useFrozenPaysim } from "./support.js";

const KEY_A = "sk_test_acme_isolation_0001";
const KEY_B = "sk_test_globex_isolation_0001";

const thisFile = suiteScope();
let paysim: TestPaysim;
let receiverA: Receiver;
let receiverB: Receiver;
let endpointA: any;
let endpointB: any;

beforeAll(async () => {
  receiverA = await useReceiver(500, thisFile);
  receiverB = await useReceiver(200, thisFile);
  const config: PaysimConfig = {
    companies: [
      {
        name: "Acme",
        currency: "EUR",
        secret_key: KEY_A,
        webhook_endpoints: [{ url: receiverA.url, secret: "whsec_acme_isolation_01", enabled_events: ["*"] }],
      },
      { name: "Globex", currency: "USD", secret_key: KEY_B, webhook_endpoints: [{ url: receiverB.url, enabled_events: ["*"] }] },
    ],
  };
  paysim = await useFrozenPaysim({ config }, thisFile);
  endpointA = (await paysim.api("GET", "/v1/webhook_endpoints", { key: KEY_A })).body.data[0];
  endpointB = (await paysim.api("GET", "/v1/webhook_endpoints", { key: KEY_B })).body.data[0];
});

const eventIdsReceived = (r: Receiver) => r.requests.map((req) => req.headers["service-event-id"]);

describe("webhooks between two companies", () => {
  it("lists each company's own endpoint only", async () => {
    expect(endpointA).toMatchObject({ url: receiverA.url, secret: "whsec_acme_isolation_01" });
    expect(endpointB.url).toBe(receiverB.url);
    const listA = await paysim.api("GET", "/v1/webhook_endpoints", { key: KEY_A });
    const listB = await paysim.api("GET", "/v1/webhook_endpoints", { key: KEY_B });
    expect(listA.body.data.map((e: any) => e.id)).toEqual([endpointA.id]);
    expect(listB.body.data.map((e: any) => e.id)).toEqual([endpointB.id]);
  });

  it("delivers a company's events to its own endpoints only, in both directions", async () => {
    const fromA = await emitCreatedEvent(paysim, KEY_A);
    const fromB = await emitCreatedEvent(paysim, KEY_B);
    const ingested = await paysim.api("POST", "/v1/sandbox/webhook_ingest", {
      key: KEY_B,
      body: { type: "payout.created", data: { reference: "POUT-GLOBEX0001", amount: 10, currency: "USD" } },
    });
    expect(ingested.status).toBe(201);
    await receiverA.waitForRequests(1);
    await receiverB.waitForRequests(2);
    await settle(paysim);
    // Retries stay with their company too.
    await advance(paysim, 30, KEY_B);

    expect(new Set(eventIdsReceived(receiverA))).toEqual(new Set([fromA.eventId]));
    expect(receiverA.requests).toHaveLength(2);
    expect(eventIdsReceived(receiverB)).toEqual([fromB.eventId, ingested.body.id]);
  });

  it("hides A's endpoints from B: read, delete and the list answer as if they did not exist", async () => {
    expectApiError(await paysim.api("GET", `/v1/webhook_endpoints/${endpointA.id}`, { key: KEY_B }), 404, "not_found");
    expectApiError(await paysim.api("DELETE", `/v1/webhook_endpoints/${endpointA.id}`, { key: KEY_B }), 404, "not_found");
    // Still there for A, and still receiving.
    const stillA = await paysim.api("GET", `/v1/webhook_endpoints/${endpointA.id}`, { key: KEY_A });
    expect(stillA.status).toBe(200);
    expect(stillA.body.secret).toBe("whsec_acme_isolation_01");
    const before = receiverA.requests.length;
    await emitCreatedEvent(paysim, KEY_A);
    await receiverA.waitForRequests(before + 1);
  });

  it("hides A's events from B: read and resend answer 404 and deliver nothing", async () => {
    const { eventId } = await emitCreatedEvent(paysim, KEY_A);
    await settle(paysim);
    const aCount = receiverA.requests.length;
    const bCount = receiverB.requests.length;

    expectApiError(await paysim.api("GET", `/v1/events/${eventId}`, { key: KEY_B }), 404, "not_found");
    expectApiError(await paysim.api("POST", `/v1/events/${eventId}/resend`, { key: KEY_B }), 404, "not_found");
    const listB = await paysim.api("GET", "/v1/events?limit=100", { key: KEY_B });
    expect(listB.body.data.map((e: any) => e.id)).not.toContain(eventId);
    await settle(paysim);

    expect(receiverA.requests).toHaveLength(aCount);
    expect(receiverB.requests).toHaveLength(bCount);
    expect((await eventWithDeliveries(paysim, eventId, KEY_A)).deliveries).toHaveLength(1);
  });

  it("does not let B's endpoint ids appear in A's event deliveries", async () => {
    const { eventId } = await emitCreatedEvent(paysim, KEY_A);
    await settle(paysim);
    const resent = await paysim.api("POST", `/v1/events/${eventId}/resend`, { key: KEY_A });
    expect(resent.status).toBe(200);
    await settle(paysim);
    const { deliveries } = await eventWithDeliveries(paysim, eventId, KEY_A);
    expect(deliveries.map((d: any) => d.endpoint_id)).toEqual([endpointA.id, endpointA.id]);
  });
});

import { describe, expect, it } from "vitest";
import { useReceiver } from "../helpers/disposables.js";
import { createEndpoint, eventWithDeliveries, settle, useFrozenPaysim } from "../webhooks/support.js";

/**
 * Issue 17, item 2: answers given in time were recorded as timeouts when
 * several endpoints shared one host:port, because an attempt's timeout ran
 * while it waited for a pooled connection. The timeout measures the receiver
 * alone, so every answer given well inside it counts, at the first attempt.
 * Nor may a delivery to many endpoints at once burst into as many connections
 * (the receiver cannot accept them all in time): the attempts past a bound wait
 * their turn in paysim, where no timeout runs.
 */

const TIMEOUT_MS = 1500;
/** A third of the timeout: with attempts queued behind each other for connections, later ones ran past it. */
const ANSWER_AFTER_MS = 500;
const ENDPOINTS = 4;
const EVENTS = 30;

describe(`${ENDPOINTS} endpoints on one host:port, a receiver answering each request after ${ANSWER_AFTER_MS} ms, a ${TIMEOUT_MS} ms timeout`, () => {
  it(`records all ${ENDPOINTS * EVENTS} deliveries succeeded at their first attempt, and the receiver gets each once`, async () => {
    const receiver = await useReceiver({ status: 200, afterMs: ANSWER_AFTER_MS });
    const paysim = await useFrozenPaysim({ webhookTimeout: TIMEOUT_MS });
    const origin = new URL(receiver.url).origin;
    const endpoints = [];
    for (let i = 0; i < ENDPOINTS; i++) endpoints.push(await createEndpoint(paysim, `${origin}/endpoint-${i}`));

    const eventIds: string[] = [];
    for (let i = 0; i < EVENTS; i++) {
      const response = await paysim.api("POST", "/v1/sandbox/webhook_ingest", {
        body: { type: "payment_intent.created", data: { reference: `SHARED-${i}`, amount: 100 + i, currency: "EUR" } },
      });
      expect(response.status, response.text).toBe(201);
      eventIds.push(response.body.id);
    }
    await settle(paysim);

    for (const eventId of eventIds) {
      const { deliveries } = await eventWithDeliveries(paysim, eventId);
      expect(deliveries.map((d: any) => d.endpoint_id).sort()).toEqual(endpoints.map((e) => e.id).sort());
      for (const delivery of deliveries) {
        expect(delivery.status, `${eventId} → ${delivery.url}: ${JSON.stringify(delivery.attempts)}`).toBe("succeeded");
        expect(delivery.attempts).toEqual([expect.objectContaining({ status_code: 200, error: null })]);
      }
    }
    const received = receiver.requests.map((request) => `${request.headers["service-event-id"]} ${request.url}`);
    expect(received).toHaveLength(ENDPOINTS * EVENTS);
    expect(new Set(received).size).toBe(ENDPOINTS * EVENTS);
    expect(receiver.requests.every((request) => request.answered)).toBe(true);
  });
});

describe("one event to 1000 endpoints on one host:port, a 2000 ms timeout", () => {
  it("records every delivery succeeded at its first attempt, and the receiver gets each once", async () => {
    const ENDPOINT_COUNT = 1000;
    const receiver = await useReceiver(200);
    const paysim = await useFrozenPaysim({ webhookTimeout: 2000 });
    const origin = new URL(receiver.url).origin;
    for (let i = 0; i < ENDPOINT_COUNT; i++) await createEndpoint(paysim, `${origin}/many-${i}`);

    const response = await paysim.api("POST", "/v1/sandbox/webhook_ingest", {
      body: { type: "payment_intent.created", data: { reference: "MANY", amount: 100, currency: "EUR" } },
    });
    expect(response.status, response.text).toBe(201);
    await settle(paysim);

    const { deliveries } = await eventWithDeliveries(paysim, response.body.id);
    expect(deliveries).toHaveLength(ENDPOINT_COUNT);
    const outcomes = new Map<string, number>();
    for (const delivery of deliveries) {
      const outcome = `${delivery.status} ${delivery.attempts.map((a: any) => a.status_code ?? a.error).join(",")}`;
      outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
    }
    expect(Object.fromEntries(outcomes)).toEqual({ "succeeded 200": ENDPOINT_COUNT });
    expect(new Set(receiver.requests.map((request) => request.url)).size).toBe(ENDPOINT_COUNT);
    expect(receiver.requests).toHaveLength(ENDPOINT_COUNT);
  }, 60_000);
});

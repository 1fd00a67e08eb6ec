import { describe, expect, it } from "vitest";
import { defer, useReceiver } from "../helpers/disposables.js";
import { createIntent } from "../helpers/paysim.js";
import type { Receiver } from "../helpers/receiver.js";
import { createEndpoint, deliveryUpdated, eventWithDeliveries, settle, useFrozenPaysim } from "./support.js";

const EVENTS = 10;

describe("a hanging endpoint", () => {
  it("delays neither the API nor another endpoint's deliveries, and its own deliveries are made once it answers", async () => {
    const hanging = await useReceiver("hang");
    const healthy = await useReceiver(200);
    // Ten minutes to answer: far longer than this test waits for anything.
    const paysim = await useFrozenPaysim({ webhookTimeout: 600_000 });
    const stuck = await createEndpoint(paysim, hanging.url);
    const fine = await createEndpoint(paysim, healthy.url);

    const healthyDone = new Set<string>();
    paysim.bus.on("delivery.attempted", (u) => {
      if (u.endpointId === fine.id && u.status === "succeeded") healthyDone.add(u.eventId);
    });
    const allHealthyDone = deliveryUpdated(paysim, () => healthyDone.size === EVENTS);

    // The first event's attempt to the hanging endpoint is in flight...
    const firstIntent = await createIntent(paysim);
    await hanging.waitForRequests(1);
    // ...and the API keeps answering: reads, more writes, the clock.
    expect((await paysim.api("GET", `/v1/payment_intents/${firstIntent.id}`)).status).toBe(200);
    expect((await paysim.api("GET", "/v1/sandbox/clock")).status).toBe(200);
    for (let i = 1; i < EVENTS; i++) await createIntent(paysim);

    // Every event reaches the healthy endpoint while the hanging one still holds its requests.
    await allHealthyDone;
    expect(healthy.requests).toHaveLength(EVENTS);
    expect(hanging.hangingCount()).toBeGreaterThan(0);
    const firstEvents = await paysim.api("GET", "/v1/events?type=payment_intent.created&limit=100");
    const firstEventId = firstEvents.body.data.at(-1).id;
    const { deliveries } = await eventWithDeliveries(paysim, firstEventId);
    expect(deliveries.map((d: any) => [d.endpoint_id, d.status])).toEqual([
      [stuck.id, "pending"],
      [fine.id, "succeeded"],
    ]);
    // The hanging attempt is shown as started, with no outcome yet.
    expect(deliveries[0].attempts).toEqual([
      { attempted_at: expect.any(String), status_code: null, error: null, duration_ms: null, response_body: null, chaos: null },
    ]);

    // Once it answers, every one of its deliveries is made: none was dropped while it hung.
    hanging.respondWith(200);
    hanging.release(200);
    await hanging.waitForRequests(EVENTS);
    await settle(paysim);
    const all = await paysim.api("GET", "/v1/events?type=payment_intent.created&limit=100");
    for (const event of all.body.data) {
      const shown = await eventWithDeliveries(paysim, event.id);
      expect(shown.deliveries.map((d: any) => d.status)).toEqual(["succeeded", "succeeded"]);
    }
    expect(new Set(hanging.requests.map((r) => r.headers["service-event-id"])).size).toBe(EVENTS);
  });

  it("many hanging endpoints filling every attempt slot still leave one for a healthy endpoint, with no warning printed", async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
    process.on("warning", onWarning);
    defer(() => process.off("warning", onWarning));
    // 10 endpoints × 10 events: far more hung attempts than paysim runs at once.
    const paysim = await useFrozenPaysim({ webhookTimeout: 600_000 });
    const hung: Receiver[] = [];
    for (let i = 0; i < 10; i++) {
      const r = await useReceiver("hang");
      hung.push(r);
      await createEndpoint(paysim, r.url);
    }
    const healthy = await useReceiver(200);
    const fine = await createEndpoint(paysim, healthy.url);
    let delivered = 0;
    const allDelivered = deliveryUpdated(paysim, (u) => u.endpointId === fine.id && u.status === "succeeded" && ++delivered === EVENTS);

    for (let i = 0; i < EVENTS; i++) await createIntent(paysim);
    await allDelivered;
    expect(healthy.requests).toHaveLength(EVENTS);
    expect(hung.reduce((sum, r) => sum + r.hangingCount(), 0)).toBeGreaterThan(10);
    // Dozens of attempts wait on the one stop signal at once: that is no listener leak to warn a user of.
    expect(warnings).toEqual([]);
  });

  it("does not hold up a clock advance: it answers while an attempt is in flight", async () => {
    const hanging = await useReceiver("hang");
    const paysim = await useFrozenPaysim({ forwardTo: hanging.url, webhookTimeout: 600_000 });
    await createIntent(paysim);
    await hanging.waitForRequests(1);
    const advanced = await paysim.api("POST", "/v1/sandbox/clock/advance", { body: { seconds: 3600 } });
    expect(advanced.status).toBe(200);
    expect(advanced.body.offset_seconds).toBe(3600);
    expect(hanging.hangingCount()).toBe(1);
  });
});

import { describe, expect, it, vi } from "vitest";
import { useReceiver } from "../helpers/disposables.js";
import type { Receiver } from "../helpers/receiver.js";
import { createEndpoint, eventWithDeliveries, settle, useFrozenPaysim } from "../webhooks/support.js";

/**
 * Issue 17, item 8: memory grew with every distinct endpoint URL ever delivered
 * to. Whatever paysim keeps per URL, per endpoint or per host:port must go once
 * it is no longer used: checked here on the structures themselves (the webhook
 * client's and the scheduler's), not on a heap size.
 */

const ROUNDS = 3;
const RECEIVERS_PER_ROUND = 4;
const ENDPOINTS_PER_RECEIVER = 25;

describe("endpoints created, delivered to and deleted, round after round, each on a URL of its own", () => {
  it("leaves nothing behind per URL, per endpoint or per host:port once they are gone", async () => {
    const paysim = await useFrozenPaysim({ webhookTimeout: 5000 });
    const receivers: Receiver[] = [];
    const perRound = RECEIVERS_PER_ROUND * ENDPOINTS_PER_RECEIVER;
    for (let round = 0; round < ROUNDS; round++) {
      const endpoints = [];
      for (let r = 0; r < RECEIVERS_PER_ROUND; r++) {
        // Half of each receiver's endpoints fail, so their deliveries wait for a retry when they are deleted.
        const receiver = await useReceiver((request) => (/\/failing-/.test(request.url) ? 500 : 200));
        receivers.push(receiver);
        const origin = new URL(receiver.url).origin;
        for (let e = 0; e < ENDPOINTS_PER_RECEIVER; e++) {
          endpoints.push(await createEndpoint(paysim, `${origin}/round-${round}/${e % 2 === 0 ? "ok" : "failing"}-${e}`));
        }
      }
      const response = await paysim.api("POST", "/v1/sandbox/webhook_ingest", {
        body: { type: "payment_intent.created", data: { reference: `CHURN-${round}`, amount: 100, currency: "EUR" } },
      });
      expect(response.status, response.text).toBe(201);
      await settle(paysim);
      const { deliveries } = await eventWithDeliveries(paysim, response.body.id);
      expect(deliveries).toHaveLength(perRound);
      for (const delivery of deliveries) expect(delivery.status, delivery.url).toBe(delivery.url.includes("/failing-") ? "pending" : "succeeded");
      // Attempts done: no URL is kept, whatever its endpoint's fate.
      expect(paysim.webhookConnections().urls).toBe(0);

      for (const endpoint of endpoints) {
        const deleted = await paysim.api("DELETE", `/v1/webhook_endpoints/${endpoint.id}`);
        expect(deleted.status, deleted.text).toBe(200);
      }
    }
    const received = receivers.reduce((sum, receiver) => sum + receiver.requests.length, 0);
    expect(received).toBe(ROUNDS * perRound);

    expect(paysim.webhookConnections().urls).toBe(0);
    expect(paysim.scheduler.trackedKeys()).toBe(0);
    // The pooled connections to the receivers (still running) close once idle, and with them every host:port's entry.
    await vi.waitFor(() => expect(paysim.webhookConnections()).toEqual({ urls: 0, origins: 0, connections: 0 }), { timeout: 20_000, interval: 100 });
  });
});

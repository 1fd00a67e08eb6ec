import type { Bus, DeliveryExpected } from "../bus.js";
import { listensTo } from "../domain/events.js";
import type { Ids } from "../domain/ids.js";
import type { Clock } from "../runtime/clock.js";
import type { Scheduler } from "../runtime/scheduler.js";
import type { Work } from "../services/unit-of-work.js";
import type { Store } from "../store/index.js";
import type { StoredEvent } from "../resources/events/store.js";
import type { WebhookEndpointRow } from "../resources/webhook-endpoints/store.js";
import { createWebhookChaos } from "./chaos.js";
import { DELIVERY_JOB } from "./delivery-job.js";
import { createFirstAttempts } from "./first-attempts.js";

/**
 * The outbox: the deliveries to make are written in the same transaction as
 * their event, each with its first attempt going out at once (see first-attempts.ts), unless the
 * endpoint's chaos delays or holds it (see chaos.ts). `ids` makes the deliveries' ids.
 */
export function createOutbox({ store, clock, scheduler, bus, ids }: { store: Store; clock: Clock; scheduler: Scheduler<Work>; bus: Bus; ids: Ids }) {
  const firstAttempts = createFirstAttempts({ store, clock, scheduler });
  const chaos = createWebhookChaos({ store, clock, scheduler });

  function deliver(event: StoredEvent, endpoint: WebhookEndpointRow, resent: boolean): DeliveryExpected {
    const now = clock.now();
    const createdAt = new Date(now).toISOString();
    // Ordered, not random: its indexes (and the job's and attempts' keyed by it) grow at one edge.
    const id = ids.newOrderedId("del", now);
    const later = chaos.scheduleFirstAttempt({ id, endpoint_id: endpoint.id }, event.id, endpoint.chaos, now);
    const delivery = store.deliveries.insert({
      id,
      event_id: event.id,
      company_id: event.company_id,
      endpoint_id: endpoint.id,
      url: endpoint.url,
      next_attempt_ms: later ?? now,
      resent: resent ? 1 : 0,
      created_at: createdAt,
    });
    if (later === undefined) firstAttempts.queue(delivery, createdAt);
    return { deliveryId: delivery.id, endpointId: endpoint.id, url: delivery.url };
  }

  /** Every live endpoint of the event's company that listens to its type gets a delivery; `resent` when a resend asks. */
  function deliverToListening(event: StoredEvent, resent: boolean): DeliveryExpected[] {
    return store.webhookEndpoints
      .live(event.company_id)
      .filter((endpoint) => listensTo(JSON.parse(endpoint.enabled_events) as string[], event.type))
      .map((endpoint) => deliver(event, endpoint, resent));
  }

  /** A deleted endpoint's pending deliveries stop: given up, their next attempts unscheduled. Inside the caller's transaction. */
  function stopForEndpoint(companyId: string, endpointId: string): string[] {
    const now = clock.nowIso();
    const stopped: string[] = [];
    for (const delivery of store.deliveries.pendingForEndpoint(companyId, endpointId)) {
      store.deliveries.update({
        id: delivery.id,
        company_id: companyId,
        status: "failed",
        attempt_count: delivery.attempt_count,
        next_attempt_ms: null,
        updated_at: now,
      });
      stopped.push(delivery.id);
      // One already running records its outcome, or drops its first attempt's record, itself.
      firstAttempts.discardUnstarted(delivery.id, scheduler.cancel(delivery.id, DELIVERY_JOB));
    }
    return stopped;
  }

  return {
    enqueue: (event: StoredEvent) => deliverToListening(event, false),
    resend: (event: StoredEvent) => void deliverToListening(event, true),
    stopForEndpoint,
    /**
     * Deletes an endpoint: it gets no new deliveries, and its pending ones stop, in one transaction;
     * then the bus hears which stopped.
     */
    removeEndpoint(companyId: string, endpointId: string): void {
      const stopped = store.transaction(() => {
        store.webhookEndpoints.softDelete(companyId, endpointId, clock.nowIso());
        return stopForEndpoint(companyId, endpointId);
      });
      bus.emit("deliveries.stopped", { endpointId, reason: "endpoint_deleted", deliveryIds: stopped });
    },
  };
}

export type Outbox = ReturnType<typeof createOutbox>;

import type { Bus, DeliveryExpected } from "../bus.js";
import { listensTo } from "../domain/events.js";
import { newOrderedId } from "../domain/ids.js";
import type { Clock } from "../runtime/clock.js";
import type { Scheduler } from "../runtime/scheduler.js";
import type { Work } from "../services/unit-of-work.js";
import type { Store } from "../store/index.js";
import type { DeliveryRow } from "../store/repos/deliveries.js";
import type { StoredEvent } from "../store/repos/events.js";
import type { WebhookEndpointRow } from "../store/repos/webhook-endpoints.js";

export const DELIVERY_JOB = "webhook.attempt";

export interface DeliveryJobPayload {
  endpoint_id: string;
  /** The first attempt's record, written with the delivery; absent on a retry's job. */
  attempt_seq?: number;
}

/**
 * The outbox: the deliveries to make are written in the same transaction as
 * their event, each with its first attempt due at once on the scheduler.
 *
 * That first attempt's "before" record is written here too: the scheduler
 * starts the job only once this transaction is durable, so the attempt can go
 * out at once, with no commit of its own in between. The job itself is kept in
 * memory only: that open record is what a restart finds. A crash (or a stop)
 * before the attempt has been sent leaves it unfinished, as one cut off
 * mid-flight: the next start marks it interrupted and sends it again
 * (the dispatcher's `recover`).
 */
export function createOutbox({ store, clock, scheduler, bus }: { store: Store; clock: Clock; scheduler: Scheduler<Work>; bus: Bus }) {
  function deliver(event: StoredEvent, endpoint: WebhookEndpointRow): DeliveryExpected {
    const now = clock.now();
    const createdAt = new Date(now).toISOString();
    const delivery = store.deliveries.insert({
      // Ordered, not random: its indexes (and the job's and attempts' keyed by it) grow at one edge.
      id: newOrderedId("del", now),
      event_id: event.id,
      company_id: event.company_id,
      endpoint_id: endpoint.id,
      url: endpoint.url,
      next_attempt_ms: now,
      created_at: createdAt,
    });
    const first = store.deliveryAttempts.start(delivery.id, createdAt);
    const payload: DeliveryJobPayload = { endpoint_id: endpoint.id, attempt_seq: first };
    scheduler.runSoon({ kind: DELIVERY_JOB, subjectId: delivery.id, payload });
    return { deliveryId: delivery.id, endpointId: endpoint.id, url: delivery.url };
  }

  /** Every live endpoint of the event's company that listens to its type gets a delivery. */
  function enqueue(event: StoredEvent): DeliveryExpected[] {
    return store.webhookEndpoints
      .live(event.company_id)
      .filter((endpoint) => listensTo(JSON.parse(endpoint.enabled_events) as string[], event.type))
      .map((endpoint) => deliver(event, endpoint));
  }

  /** A deleted endpoint's pending deliveries stop: given up, their next attempts unscheduled. Inside the caller's transaction. */
  function stopForEndpoint(endpointId: string): string[] {
    const now = clock.nowIso();
    const stopped: string[] = [];
    for (const delivery of store.deliveries.pendingForEndpoint(endpointId)) {
      store.deliveries.update({ id: delivery.id, status: "failed", attempt_count: delivery.attempt_count, next_attempt_ms: null, updated_at: now });
      stopped.push(delivery.id);
      for (const job of scheduler.cancel(delivery.id, DELIVERY_JOB)) {
        // A first attempt recorded ahead whose job never started was never sent: it is no attempt.
        // (One already running records its outcome, or drops its record, itself.)
        const { attempt_seq } = job.payload as DeliveryJobPayload;
        if (attempt_seq !== undefined) store.deliveryAttempts.discardUnsent(attempt_seq, delivery.id);
      }
    }
    return stopped;
  }

  return {
    enqueue,
    stopForEndpoint,
    /**
     * Deletes an endpoint: it gets no new deliveries, and its pending ones stop, in one transaction;
     * then the bus hears which stopped.
     */
    removeEndpoint(companyId: string, endpointId: string): void {
      const stopped = store.transaction(() => {
        store.webhookEndpoints.softDelete(companyId, endpointId, clock.nowIso());
        return stopForEndpoint(endpointId);
      });
      bus.emit("deliveries.stopped", { endpointId, reason: "endpoint_deleted", deliveryIds: stopped });
    },
  };
}

export type Outbox = ReturnType<typeof createOutbox>;

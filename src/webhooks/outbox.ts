import { newOrderedId } from "../domain/ids.js";
import type { Clock } from "../runtime/clock.js";
import type { Scheduler } from "../runtime/scheduler.js";
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

/** Whether an endpoint listens to this event type. */
export function listensTo(endpoint: Pick<WebhookEndpointRow, "enabled_events">, type: string): boolean {
  const enabled = JSON.parse(endpoint.enabled_events) as string[];
  return enabled.includes("*") || enabled.includes(type);
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
export function createOutbox({ store, clock, scheduler }: { store: Store; clock: Clock; scheduler: Scheduler }) {
  function deliver(event: StoredEvent, endpoint: WebhookEndpointRow): DeliveryRow {
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
    return delivery;
  }

  /** Every live endpoint of the event's company that listens to its type gets a delivery. */
  function enqueue(event: StoredEvent): DeliveryRow[] {
    return store.webhookEndpoints
      .live(event.company_id)
      .filter((endpoint) => listensTo(endpoint, event.type))
      .map((endpoint) => deliver(event, endpoint));
  }

  return {
    enqueue,
    /** A deleted endpoint's pending deliveries stop: given up, their next attempts unscheduled. */
    stopForEndpoint(endpointId: string): void {
      const now = clock.nowIso();
      for (const delivery of store.deliveries.pendingForEndpoint(endpointId)) {
        store.deliveries.update({ id: delivery.id, status: "failed", attempt_count: delivery.attempt_count, next_attempt_ms: null, updated_at: now });
        for (const job of scheduler.cancel(delivery.id, DELIVERY_JOB)) {
          // A first attempt recorded ahead whose job never started was never sent: it is no attempt.
          // (One already running records its outcome, or drops its record, itself.)
          const { attempt_seq } = job.payload as DeliveryJobPayload;
          if (attempt_seq !== undefined) store.deliveryAttempts.discardUnsent(attempt_seq, delivery.id);
        }
      }
    },
  };
}

export type Outbox = ReturnType<typeof createOutbox>;

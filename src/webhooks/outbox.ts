import { newId } from "../domain/ids.js";
import type { Clock } from "../runtime/clock.js";
import type { Scheduler } from "../runtime/scheduler.js";
import type { Store } from "../store/index.js";
import type { DeliveryRow } from "../store/repos/deliveries.js";
import type { StoredEvent } from "../store/repos/events.js";
import type { WebhookEndpointRow } from "../store/repos/webhook-endpoints.js";

export const DELIVERY_JOB = "webhook.attempt";

export interface DeliveryJobPayload {
  endpoint_id: string;
}

/** Whether an endpoint listens to this event type. */
export function listensTo(endpoint: Pick<WebhookEndpointRow, "enabled_events">, type: string): boolean {
  const enabled = JSON.parse(endpoint.enabled_events) as string[];
  return enabled.includes("*") || enabled.includes(type);
}

/**
 * The outbox: the deliveries to make are written in the same transaction as
 * their event, each with its first attempt due at once on the scheduler.
 */
export function createOutbox({ store, clock, scheduler }: { store: Store; clock: Clock; scheduler: Scheduler }) {
  function deliver(event: StoredEvent, endpoint: WebhookEndpointRow): DeliveryRow {
    const now = clock.now();
    const delivery = store.deliveries.insert({
      id: newId("del"),
      event_id: event.id,
      company_id: event.company_id,
      endpoint_id: endpoint.id,
      url: endpoint.url,
      next_attempt_ms: now,
      created_at: new Date(now).toISOString(),
    });
    scheduler.schedule({ kind: DELIVERY_JOB, subjectId: delivery.id, dueMs: now, payload: { endpoint_id: endpoint.id } satisfies DeliveryJobPayload });
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
        scheduler.cancel(delivery.id, DELIVERY_JOB);
      }
    },
  };
}

export type Outbox = ReturnType<typeof createOutbox>;

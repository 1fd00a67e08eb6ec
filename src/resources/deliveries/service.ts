/** The deliveries of events with their attempts, as an event's read shows them: the API's, the dashboard's and the test harness's. */
import type { DeliveryView } from "./contract.js";
import type { Store } from "../../store/index.js";
import type { DeliveryRow } from "./store.js";
import type { StoredEvent } from "../events/store.js";

/** The deliveries of one of the company's events with their attempts, as `GET /v1/events/:id` shows them (docs/webhooks.md). */
export function eventDeliveries(store: Store, event: Pick<StoredEvent, "id" | "company_id">): DeliveryView[] {
  return withAttempts(store, store.deliveries.forCompanyEvent(event.company_id, event.id));
}

/** As `eventDeliveries`, for an event of any company: the test harness watches them all. */
export function deliveriesOf(store: Store, eventId: string): DeliveryView[] {
  return withAttempts(store, store.deliveries.forEvent(eventId));
}

function withAttempts(store: Store, deliveries: DeliveryRow[]): DeliveryView[] {
  const attempts = store.deliveryAttempts.forDeliveries(deliveries.map((d) => d.id));
  return deliveries.map((delivery) => ({
    id: delivery.id,
    endpoint_id: delivery.endpoint_id,
    url: delivery.url,
    status: delivery.status,
    next_attempt_at: delivery.next_attempt_ms === null ? null : new Date(delivery.next_attempt_ms).toISOString(),
    attempts: attempts
      .filter((a) => a.delivery_id === delivery.id)
      .map((a) => ({
        attempted_at: a.attempted_at,
        status_code: a.status_code,
        error: a.error,
        duration_ms: a.duration_ms,
        response_body: a.response_body,
        chaos: a.chaos,
      })),
  }));
}

export type { DeliveryView } from "./contract.js";

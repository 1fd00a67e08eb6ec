import type { Store } from "../store/index.js";

export interface DeliveryView {
  id: string;
  endpoint_id: string;
  url: string;
  status: string;
  next_attempt_at: string | null;
  attempts: {
    attempted_at: string;
    status_code: number | null;
    error: string | null;
    duration_ms: number | null;
    /** The first KiB of the receiver's answer, masked; null without an answer. */
    response_body: string | null;
    /** Which webhook chaos made the attempt (SPEC §13.1), or null. */
    chaos: string | null;
  }[];
}

/** An event's deliveries with their attempts, as `GET /v1/events/:id` shows them (SPEC §7). */
export function deliveriesOf(store: Store, eventId: string): DeliveryView[] {
  const deliveries = store.deliveries.forEvent(eventId);
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

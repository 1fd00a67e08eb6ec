import * as z from "zod";
import { idOf, timestampSchema } from "../domain/answer-schemas.js";
import { chaosMarkSchema } from "../domain/chaos.js";
import { eventResource, eventSchema } from "./events.js";
import type { Store } from "../store/index.js";
import type { StoredEvent } from "../store/repos/events.js";

/** One attempt of a delivery (docs/webhooks.md): `status_code` null and `error` set on a network error or timeout. */
export const deliveryAttemptSchema = z.strictObject({
  attempted_at: timestampSchema,
  status_code: z.number().int().nullable(),
  error: z.string().nullable(),
  duration_ms: z.number().int().min(0).nullable(),
  /** The first KiB of the receiver's answer, masked; null without an answer. */
  response_body: z.string().nullable(),
  /** Which webhook chaos made the attempt (docs/webhooks.md), or null. */
  chaos: chaosMarkSchema.nullable(),
});

/** A delivery as `GET /v1/events/:id` shows it: the type `deliveriesOf` builds, and the OpenAPI document's schema. */
export const deliverySchema = z.strictObject({
  id: idOf("del"),
  endpoint_id: idOf("we"),
  url: z.string(),
  status: z.enum(["pending", "succeeded", "failed"]),
  next_attempt_at: timestampSchema.nullable(),
  attempts: z.array(deliveryAttemptSchema),
});

export type DeliveryView = z.infer<typeof deliverySchema>;

/** An event's deliveries with their attempts, as `GET /v1/events/:id` shows them (docs/webhooks.md). */
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

/** An event with its deliveries and their attempts: what `GET /v1/events/:id`, a resend and an HTTP wait answer. */
export const eventWithDeliveriesSchema = eventSchema.extend({ deliveries: z.array(deliverySchema) });
export type EventWithDeliveries = z.infer<typeof eventWithDeliveriesSchema>;

/** The event as `GET /v1/events/:id` shows it, deliveries included. */
export function eventWithDeliveries(store: Store, event: Pick<StoredEvent, "id" | "body">): EventWithDeliveries {
  return { ...eventResource(event), deliveries: deliveriesOf(store, event.id) };
}

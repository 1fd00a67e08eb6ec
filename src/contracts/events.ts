/** The contracts of /v1/events and the test-event ingestion (docs/webhooks.md). */
import * as z from "zod";
import { idOf, requestIdSchema, timestampSchema } from "../domain/answer-schemas.js";
import { chaosMarkSchema } from "../domain/chaos.js";
import { EVENT_TYPES } from "../domain/events.js";
import { amountSchema, currencySchema, freeFormObject, need, needOneOf } from "../domain/validation.js";
import { listQuerySchema } from "./common.js";

/**
 * An event: the body the unit of work stores and every delivery sends. Its `request_id` is the
 * request that caused it; `data` a masked snapshot.
 */
export const eventSchema = z.lazy(() =>
  z.strictObject({
    id: idOf("evt"),
    object: z.literal("event"),
    type: z.enum(EVENT_TYPES),
    created_at: timestampSchema,
    request_id: requestIdSchema,
    data: z.record(z.string(), z.unknown()),
  }),
);

export type EventResource = z.infer<typeof eventSchema>;

/** One attempt of a delivery: `status_code` null and `error` set on a network error or timeout. */
export const deliveryAttemptSchema = z.lazy(() =>
  z.strictObject({
    attempted_at: timestampSchema,
    status_code: z.number().int().nullable(),
    error: z.string().nullable(),
    duration_ms: z.number().int().min(0).nullable(),
    /** The first KiB of the receiver's answer, masked; null without an answer. */
    response_body: z.string().nullable(),
    /** Which webhook chaos made the attempt (docs/webhooks.md), or null. */
    chaos: chaosMarkSchema.nullable(),
  }),
);

/** A delivery as `GET /v1/events/:id` shows it. */
export const deliverySchema = z.lazy(() =>
  z.strictObject({
    id: idOf("del"),
    endpoint_id: idOf("we"),
    url: z.string(),
    status: z.enum(["pending", "succeeded", "failed"]),
    next_attempt_at: timestampSchema.nullable(),
    attempts: z.array(deliveryAttemptSchema),
  }),
);

export type DeliveryView = z.infer<typeof deliverySchema>;

/** An event with its deliveries and their attempts: what a read by id, a resend and an HTTP wait answer. */
export const eventWithDeliveriesSchema = z.lazy(() => eventSchema.unwrap().extend({ deliveries: z.array(deliverySchema) }));
export type EventWithDeliveries = z.infer<typeof eventWithDeliveriesSchema>;

/** `GET /v1/events`'s query. */
export const listEventsQuery = listQuerySchema("evt", { name: "type", values: EVENT_TYPES });

/**
 * The body of `POST /v1/sandbox/webhook_ingest`: a known type, and data with the three validated
 * fields; the rest of data is free-form, but a `__proto__` key anywhere in it is refused.
 */
export const ingestInput = z.lazy(() =>
  z.strictObject({
    type: z.enum(EVENT_TYPES, { error: needOneOf("type", EVENT_TYPES) }),
    data: freeFormObject(
      z.looseObject(
        {
          reference: z.string({ error: need("data.reference", "a string") }),
          amount: amountSchema,
          currency: currencySchema,
        },
        { error: need("data", "an object with reference, amount and currency") },
      ),
    ),
  }),
);

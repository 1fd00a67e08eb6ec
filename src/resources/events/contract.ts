/** The contracts of /v1/events and the test-event ingestion (docs/webhooks.md). */
import * as z from "zod";
import { idOf, requestIdSchema, timestampSchema } from "../../domain/answer-schemas.js";
import { EVENT_TYPES } from "../../domain/events.js";
import { amountSchema, currencySchema, freeFormObject, need, needOneOf } from "../../domain/validation.js";
import { listQuerySchema } from "../../contracts/common.js";
import { deliverySchema } from "../deliveries/contract.js";

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

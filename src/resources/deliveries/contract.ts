/** A delivery as `GET /v1/events/:id` shows it: one event on its way to one endpoint (docs/webhooks.md). */
import * as z from "zod";
import { idOf, timestampSchema } from "../../domain/answer-schemas.js";
import { deliveryAttemptSchema } from "../delivery-attempts/contract.js";

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

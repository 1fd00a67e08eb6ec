/** A delivery attempt as `GET /v1/events/:id` shows it, within its delivery (docs/webhooks.md). */
import * as z from "zod";
import { timestampSchema } from "../../domain/answer-schemas.js";
import { chaosMarkSchema } from "../../domain/chaos.js";

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

import * as z from "zod";
import { chaosMarkSchema, type ChaosMark } from "../domain/chaos.js";
import { idOf } from "../domain/answer-schemas.js";

/** The scheduler's job kind for one attempt of a webhook delivery. */
export const DELIVERY_JOB = "webhook.attempt";

export interface DeliveryJobPayload {
  endpoint_id: string;
  /** The first attempt's record, written with the delivery; absent on a retry's job. */
  attempt_seq?: number;
  /** The webhook chaos that makes this attempt (docs/webhooks.md); absent on a normal one. */
  chaos?: ChaosMark;
}

/** What `DeliveryJobPayload` may hold, for a snapshot's jobs (src/snapshot-rules.ts). */
export const deliveryJobPayloadSchema: z.ZodType<DeliveryJobPayload> = z.lazy(() =>
  z.strictObject({ endpoint_id: idOf("we"), attempt_seq: z.int().min(1).optional(), chaos: chaosMarkSchema.optional() }),
);

import * as z from "zod";
import { chaosMarkSchema, type ChaosMark } from "../domain/chaos.js";
import { idOf } from "../domain/answer-schemas.js";
import { json, refersTo } from "../store/snapshot-checks.js";
import type { JobSnapshotRule } from "../store/snapshot-sources.js";

/** The scheduler's job kind for one attempt of a webhook delivery. */
export const DELIVERY_JOB = "webhook.attempt";

export interface DeliveryJobPayload {
  endpoint_id: string;
  /** The first attempt's record, written with the delivery; absent on a retry's job. */
  attempt_seq?: number;
  /** The webhook chaos that makes this attempt (docs/webhooks.md); absent on a normal one. */
  chaos?: ChaosMark;
}

/** What `DeliveryJobPayload` may hold, for a snapshot's jobs (DELIVERY_JOB_SNAPSHOT). */
export const deliveryJobPayloadSchema: z.ZodType<DeliveryJobPayload> = z.lazy(() =>
  z.strictObject({ endpoint_id: idOf("we"), attempt_seq: z.int().min(1).optional(), chaos: chaosMarkSchema.optional() }),
);

/** What a snapshot's delivery job may hold: it attempts a delivery of the snapshot, for an endpoint (and a first attempt) of it. */
export const DELIVERY_JOB_SNAPSHOT: JobSnapshotRule = {
  subject: refersTo("deliveries"),
  payload: json(deliveryJobPayloadSchema, false, (parsed, _row, known) => {
    const payload = parsed as DeliveryJobPayload;
    if (!known("webhook_endpoints", payload.endpoint_id)) return "its endpoint_id names no webhook endpoint of the snapshot";
    if (payload.attempt_seq !== undefined && !known("delivery_attempts", payload.attempt_seq))
      return "its attempt_seq names no delivery attempt of the snapshot";
    return undefined;
  }),
};

import type { ChaosMark } from "../domain/chaos.js";

/** The scheduler's job kind for one attempt of a webhook delivery. */
export const DELIVERY_JOB = "webhook.attempt";

export interface DeliveryJobPayload {
  endpoint_id: string;
  /** The first attempt's record, written with the delivery; absent on a retry's job. */
  attempt_seq?: number;
  /** The webhook chaos that makes this attempt (docs/webhooks.md); absent on a normal one. */
  chaos?: ChaosMark;
}

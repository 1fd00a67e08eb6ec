import type { Store } from "../store/index.js";

/**
 * The `Service-Signature` header each attempt of these deliveries carried, per delivery id, oldest
 * attempt first, as it was sent. Null for an attempt whose header was not recorded (sent before
 * paysim kept it, or cut off before it went out).
 */
export function signaturesSent(store: Store, deliveryIds: readonly string[]): Map<string, (string | null)[]> {
  const sent = new Map<string, (string | null)[]>();
  const attempts = store.deliveryAttempts.forDeliveries(deliveryIds);
  for (const id of deliveryIds) {
    sent.set(
      id,
      attempts.filter((attempt) => attempt.delivery_id === id).map((attempt) => attempt.service_signature),
    );
  }
  return sent;
}

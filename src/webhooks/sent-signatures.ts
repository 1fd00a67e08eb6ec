import type { Store } from "../store/index.js";
import { signatureHeader } from "./sign.js";

/**
 * The `Service-Signature` header each attempt of these deliveries carried, per delivery id, oldest
 * attempt first: made again from the stored body (the bytes every attempt sends), the endpoint's
 * secret and the `t` the attempt was signed at. Null for an attempt whose `t` was not recorded
 * (sent before paysim kept it, or cut off before it went out).
 */
export function signaturesSent(store: Store, deliveryIds: readonly string[]): Map<string, (string | null)[]> {
  const sent = new Map<string, (string | null)[]>();
  const attempts = store.deliveryAttempts.forDeliveries(deliveryIds);
  for (const id of deliveryIds) {
    const signed = store.deliveries.forAttempt(id);
    const headers = attempts
      .filter((attempt) => attempt.delivery_id === id)
      .map((attempt) => (signed && attempt.signed_t !== null ? signatureHeader(signed.secret, signed.body, attempt.signed_t) : null));
    sent.set(id, headers);
  }
  return sent;
}

import { VERSION } from "../version.js";
import { signatureHeader, wallClockSeconds } from "./sign.js";

/**
 * The headers of a webhook delivery (docs/webhooks.md), signed at unix time `t` (default: now, on the
 * real wall clock). Every delivery paysim makes, and every request of `paysim check-receiver`,
 * starts from these.
 */
export function deliveryHeaders(body: string, secret: string, eventId: string, t: number = wallClockSeconds()): Record<string, string> {
  return {
    "Content-Type": "application/json",
    "Service-Signature": signatureHeader(secret, body, t),
    "Service-Event-Id": eventId,
    "User-Agent": `paysim/${VERSION}`,
  };
}

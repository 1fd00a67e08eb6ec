import type { StoredEvent } from "../resources/events/store.js";
import type { EventRecordedHook } from "./unit-of-work.js";

/**
 * What the API and the dashboard ask of the webhook outbox (webhooks/outbox.ts). The server sits
 * beside the outbox, not above it (docs/architecture.md), so it holds this port, which the wiring
 * (paysim.ts) fills with the outbox itself.
 */
export interface OutboxPort {
  /** Writes a delivery of the event to every live endpoint of its company that listens to it now, in the caller's transaction. */
  enqueue: EventRecordedHook;
  /** As `enqueue`, for a resend: the deliveries are marked as a resend's, which a wait may ask for. */
  resend(event: StoredEvent): void;
  /** Deletes an endpoint and stops its pending deliveries in one transaction; then the bus says which stopped. */
  removeEndpoint(companyId: string, endpointId: string): void;
}

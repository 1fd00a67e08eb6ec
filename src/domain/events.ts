import { EVENT_TYPES, type EventType } from "./resources.js";

/** Every event type paysim emits (docs/webhooks.md): each resource's, registered in domain/resources.ts. */
export { EVENT_TYPES, type EventType };

export function isEventType(value: string): value is EventType {
  return (EVENT_TYPES as readonly string[]).includes(value);
}

/**
 * Whether an endpoint with these `enabled_events` receives events of this type.
 *
 * @example
 * listensTo(["*"], "payout.created")                      // true
 * listensTo(["payment_intent.captured"], "payout.created") // false
 */
export function listensTo(enabledEvents: readonly string[], type: string): boolean {
  return enabledEvents.includes("*") || enabledEvents.includes(type);
}

/** Every event type paysim emits (docs/webhooks.md). */
export const EVENT_TYPES = [
  "payment_intent.created",
  "payment_intent.authorized",
  "payment_intent.captured",
  "payment_intent.canceled",
  "payment_intent.failed",
  "payout.created",
  "payout.processing",
  "payout.succeeded",
  "payout.failed",
  "payout.returned",
  "payout.reversed",
  "payout.partially_reversed",
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

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

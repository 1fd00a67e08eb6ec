import { ApiError } from "../../domain/errors.js";

export const PAYMENT_INTENT_STATES = ["created", "authorized", "captured", "canceled", "failed"] as const;
export type PaymentIntentState = (typeof PAYMENT_INTENT_STATES)[number];

export type PaymentIntentTrigger = "authorize" | "fail" | "capture" | "cancel";

/** The events of a payment intent: its creation's, then one per state it moves to. */
export const PAYMENT_INTENT_EVENTS = [
  "payment_intent.created",
  "payment_intent.authorized",
  "payment_intent.captured",
  "payment_intent.canceled",
  "payment_intent.failed",
] as const satisfies readonly `payment_intent.${PaymentIntentState}`[];

export type PaymentIntentEventType = (typeof PAYMENT_INTENT_EVENTS)[number];

export interface Transition {
  from: PaymentIntentState;
  trigger: PaymentIntentTrigger;
  to: PaymentIntentState;
  event: PaymentIntentEventType;
}

/** The seed's transition table, row for row. Anything not here is refused. */
export const PAYMENT_INTENT_TRANSITIONS: readonly Transition[] = [
  { from: "created", trigger: "authorize", to: "authorized", event: "payment_intent.authorized" },
  { from: "created", trigger: "fail", to: "failed", event: "payment_intent.failed" },
  { from: "created", trigger: "cancel", to: "canceled", event: "payment_intent.canceled" },
  { from: "authorized", trigger: "capture", to: "captured", event: "payment_intent.captured" },
  { from: "authorized", trigger: "cancel", to: "canceled", event: "payment_intent.canceled" },
];

/** The states a trigger may move from, as the table holds them ("created or authorized"). */
const allowedFrom = (trigger: PaymentIntentTrigger): string =>
  PAYMENT_INTENT_TRANSITIONS.filter((t) => t.trigger === trigger)
    .map((t) => t.from)
    .join(" or ");

/** The state each trigger moves to, read off the table: a refused move is named by it ("captured->canceled"). */
export const PAST = Object.fromEntries(PAYMENT_INTENT_TRANSITIONS.map((t) => [t.trigger, t.to])) as Record<PaymentIntentTrigger, PaymentIntentState>;

/**
 * The state after `trigger`, and the event it emits; throws `invalid_request`
 * for any move the table does not hold.
 *
 * @example
 * transitionPaymentIntent("authorized", "capture") // { to: "captured", event: "payment_intent.captured" }
 */
export function transitionPaymentIntent(from: PaymentIntentState, trigger: PaymentIntentTrigger): { to: PaymentIntentState; event: PaymentIntentEventType } {
  const row = PAYMENT_INTENT_TRANSITIONS.find((t) => t.from === from && t.trigger === trigger);
  if (!row) {
    throw new ApiError(
      "invalid_request",
      `Cannot ${trigger} a payment intent in state "${from}": only a payment intent in state ${allowedFrom(trigger)} can be ${PAST[trigger]}.`,
    );
  }
  return { to: row.to, event: row.event };
}

export const CAPTURE_METHODS = ["automatic", "manual"] as const;
export type CaptureMethod = (typeof CAPTURE_METHODS)[number];

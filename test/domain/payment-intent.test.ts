import { describe, expect, it } from "vitest";
import { ApiError } from "../../src/domain/errors.js";
import {
  PAYMENT_INTENT_STATES,
  transitionPaymentIntent,
  type PaymentIntentState,
  type PaymentIntentTrigger,
} from "../../src/resources/payment-intents/machine.js";

const ALLOWED: [PaymentIntentState, PaymentIntentTrigger, PaymentIntentState, string][] = [
  ["created", "authorize", "authorized", "payment_intent.authorized"],
  ["created", "fail", "failed", "payment_intent.failed"],
  ["created", "cancel", "canceled", "payment_intent.canceled"],
  ["authorized", "capture", "captured", "payment_intent.captured"],
  ["authorized", "cancel", "canceled", "payment_intent.canceled"],
];

const TRIGGERS: PaymentIntentTrigger[] = ["authorize", "fail", "capture", "cancel"];

describe("payment intent state machine", () => {
  it.each(ALLOWED)("moves %s --%s--> %s emitting %s", (from, trigger, to, event) => {
    expect(transitionPaymentIntent(from, trigger)).toEqual({ to, event });
  });

  const refused = PAYMENT_INTENT_STATES.flatMap((from) =>
    TRIGGERS.filter((trigger) => !ALLOWED.some(([f, t]) => f === from && t === trigger)).map((trigger) => [from, trigger] as const),
  );

  it("refuses exactly the 15 moves the table does not hold", () => {
    expect(refused).toHaveLength(15);
  });

  it.each(refused)("refuses %s --%s--> with invalid_request", (from, trigger) => {
    let caught: unknown;
    try {
      transitionPaymentIntent(from, trigger);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ApiError);
    expect((caught as ApiError).code).toBe("invalid_request");
    expect((caught as ApiError).message).toContain(`"${from}"`);
  });

  it.each([
    ["captured", "cancel", 'Cannot cancel a payment intent in state "captured": only a payment intent in state created or authorized can be canceled.'],
    ["created", "capture", 'Cannot capture a payment intent in state "created": only a payment intent in state authorized can be captured.'],
    ["failed", "authorize", 'Cannot authorize a payment intent in state "failed": only a payment intent in state created can be authorized.'],
  ] as const)("says, refusing %s --%s-->, which states the move is made from and what it makes", (from, trigger, message) => {
    expect(() => transitionPaymentIntent(from, trigger)).toThrow(message);
  });
});

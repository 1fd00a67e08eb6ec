import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ApiError } from "../../src/domain/errors.js";
import { PAYOUT_MOVES, PAYOUT_STATUSES, transitionPayout, type PayoutStatus } from "../../src/resources/payouts/machine.js";
import {
  PAYMENT_INTENT_TRANSITIONS,
  transitionPaymentIntent,
  type PaymentIntentState,
  type PaymentIntentTrigger,
} from "../../src/resources/payment-intents/machine.js";
import { MAX_ATTEMPTS, nextAttemptAt, RETRY_DELAYS_MS } from "../../src/domain/retry-schedule.js";

const TERMINAL_INTENT: PaymentIntentState[] = ["captured", "canceled", "failed"];

describe("state machines (properties)", () => {
  it("no sequence of payment intent triggers leaves the drawn graph or leaves a terminal state", () => {
    const trigger = fc.constantFrom<PaymentIntentTrigger>("authorize", "fail", "capture", "cancel");
    fc.assert(
      fc.property(fc.array(trigger, { maxLength: 12 }), (triggers) => {
        let state: PaymentIntentState = "created";
        for (const t of triggers) {
          try {
            const { to } = transitionPaymentIntent(state, t);
            expect(PAYMENT_INTENT_TRANSITIONS.some((row) => row.from === state && row.trigger === t && row.to === to)).toBe(true);
            expect(TERMINAL_INTENT).not.toContain(state);
            state = to;
          } catch (error) {
            expect(error).toBeInstanceOf(ApiError);
            expect((error as ApiError).code).toBe("invalid_request");
          }
        }
      }),
    );
  });

  it("no sequence of payout moves reaches a status by an undrawn edge, and finals stay final", () => {
    const status = fc.constantFrom<PayoutStatus>(...PAYOUT_STATUSES);
    fc.assert(
      fc.property(fc.array(status, { maxLength: 12 }), (targets) => {
        let current: PayoutStatus = "pending";
        const path: PayoutStatus[] = [current];
        for (const to of targets) {
          try {
            transitionPayout(current, to);
            current = to;
            path.push(to);
          } catch (error) {
            expect((error as ApiError).code).toBe("invalid_request");
          }
        }
        for (let i = 1; i < path.length; i++) {
          expect(PAYOUT_MOVES.some((m) => m.from === path[i - 1] && m.to === path[i])).toBe(true);
        }
        expect(path.filter((s) => s === "pending")).toHaveLength(1);
      }),
    );
  });
});

describe("retry schedule (properties)", () => {
  it("gives every delivery exactly 7 attempts, each after the seed's delay from the one before", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 40 }), (firstAttempt) => {
        const times = [firstAttempt];
        let next = nextAttemptAt(1, firstAttempt);
        while (next !== undefined) {
          times.push(next);
          next = nextAttemptAt(times.length, next);
        }
        expect(times).toHaveLength(MAX_ATTEMPTS);
        expect(times.slice(1).map((t, i) => t - times[i]!)).toEqual(RETRY_DELAYS_MS);
      }),
    );
  });
});

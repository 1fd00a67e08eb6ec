import { describe, expect, it } from "vitest";
import { ApiError } from "../../src/domain/errors.js";
import { checkMoveAmount, PAYOUT_STATUSES, statusEffects, transitionPayout, type PayoutStatus } from "../../src/resources/payouts/machine.js";

const DRAWN: [PayoutStatus, PayoutStatus][] = [
  ["pending", "processing"],
  ["pending", "failed"],
  ["pending", "returned"],
  ["processing", "succeeded"],
  ["succeeded", "reversed"],
  ["succeeded", "partially_reversed"],
];

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    return error instanceof ApiError ? error.code : "not an ApiError";
  }
  return undefined;
}

describe("payout state machine", () => {
  it.each(DRAWN)("allows %s → %s and emits payout.<status>", (from, to) => {
    expect(transitionPayout(from, to)).toBe(`payout.${to}`);
  });

  const undrawn = PAYOUT_STATUSES.flatMap((from) =>
    PAYOUT_STATUSES.filter((to) => !DRAWN.some(([f, t]) => f === from && t === to)).map((to) => [from, to] as const),
  );

  it("refuses the 43 moves the diagram does not draw", () => {
    expect(undrawn).toHaveLength(PAYOUT_STATUSES.length ** 2 - DRAWN.length);
  });

  it.each(undrawn)("refuses %s → %s with invalid_request", (from, to) => {
    expect(codeOf(() => transitionPayout(from, to))).toBe("invalid_request");
  });

  it("names the allowed moves, or finality, in the refusal", () => {
    expect(() => transitionPayout("pending", "succeeded")).toThrow(/"processing" or "failed" or "returned"/);
    expect(() => transitionPayout("reversed", "succeeded")).toThrow(/"reversed" is final/);
  });
});

describe("amount of a move", () => {
  it.each<[PayoutStatus, number | undefined]>([
    ["partially_reversed", 1],
    ["partially_reversed", 4999],
    ["reversed", undefined],
    ["processing", undefined],
  ])("accepts %s with amount %s", (to, amount) => {
    expect(codeOf(() => checkMoveAmount(to, 5000, amount))).toBeUndefined();
  });

  it.each<[PayoutStatus, number | undefined, string]>([
    ["partially_reversed", undefined, "amount is required for a partial reversal: an integer greater than 0 and less than the payout amount (5000)."],
    ["partially_reversed", 0, "amount must be an integer greater than 0 and less than the payout amount (5000) for a partial reversal; got 0."],
    ["partially_reversed", -1, "amount must be an integer greater than 0 and less than the payout amount (5000) for a partial reversal; got -1."],
    ["partially_reversed", 5000, "amount must be an integer greater than 0 and less than the payout amount (5000) for a partial reversal; got 5000."],
    ["partially_reversed", 6000, "amount must be an integer greater than 0 and less than the payout amount (5000) for a partial reversal; got 6000."],
    ["partially_reversed", 10.5, "amount must be an integer greater than 0 and less than the payout amount (5000) for a partial reversal; got 10.5."],
    ["reversed", 100, 'amount is only accepted when moving to "partially_reversed"; remove it.'],
    ["succeeded", 100, 'amount is only accepted when moving to "partially_reversed"; remove it.'],
  ])("refuses %s with amount %s (param amount), saying what was wrong", (to, amount, message) => {
    try {
      checkMoveAmount(to, 5000, amount);
      expect.unreachable();
    } catch (error) {
      expect((error as ApiError).param).toBe("amount");
      expect((error as ApiError).message).toBe(message);
    }
  });
});

describe("status effects", () => {
  it.each([
    ["failed", { failure_reason: "destination_rejected", amount_reversed: 0 }],
    ["returned", { failure_reason: "returned_by_bank", amount_reversed: 0 }],
    ["reversed", { failure_reason: null, amount_reversed: 5000 }],
    ["partially_reversed", { failure_reason: null, amount_reversed: 1200 }],
    ["succeeded", { failure_reason: null, amount_reversed: 0 }],
  ] as const)("%s sets %o", (to, effects) => {
    expect(statusEffects(to, 5000, 1200)).toEqual(effects);
  });
});

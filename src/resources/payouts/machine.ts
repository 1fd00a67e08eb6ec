import { ApiError } from "../../domain/errors.js";

export const PAYOUT_STATUSES = ["pending", "processing", "succeeded", "failed", "returned", "reversed", "partially_reversed"] as const;
export type PayoutStatus = (typeof PAYOUT_STATUSES)[number];

export const DESTINATION_TYPES = ["card", "account", "wallet"] as const;
export type DestinationType = (typeof DESTINATION_TYPES)[number];

/** Every status but the initial one has its event; creation has payout.created. */
export const PAYOUT_EVENTS = [
  "payout.created",
  ...PAYOUT_STATUSES.filter((status): status is Exclude<PayoutStatus, "pending"> => status !== "pending").map((status) => `payout.${status}` as const),
] as const;

export type PayoutEventType = `payout.${Exclude<PayoutStatus, "pending">}` | "payout.created";

/** The moves as drawn in the seed (docs/api.md). Anything else is refused. */
export const PAYOUT_MOVES: readonly { from: PayoutStatus; to: PayoutStatus }[] = [
  { from: "pending", to: "processing" },
  { from: "pending", to: "failed" },
  { from: "pending", to: "returned" },
  { from: "processing", to: "succeeded" },
  { from: "succeeded", to: "reversed" },
  { from: "succeeded", to: "partially_reversed" },
];

/** The statuses a payout in `from` may move to. */
export function movesFrom(from: PayoutStatus): PayoutStatus[] {
  return PAYOUT_MOVES.filter((m) => m.from === from).map((m) => m.to);
}

/**
 * The event of a drawn move; throws `invalid_request` for any other.
 *
 * @example
 * transitionPayout("pending", "processing") // "payout.processing"
 */
export function transitionPayout(from: PayoutStatus, to: PayoutStatus): PayoutEventType {
  if (!PAYOUT_MOVES.some((m) => m.from === from && m.to === to)) {
    const allowed = movesFrom(from);
    throw new ApiError(
      "invalid_request",
      `Cannot move a payout from "${from}" to "${to}": ` +
        (allowed.length ? `from "${from}" it can only move to ${allowed.map((s) => `"${s}"`).join(" or ")}.` : `"${from}" is final.`),
    );
  }
  return `payout.${to as Exclude<PayoutStatus, "pending">}`;
}

/** What a status sets besides itself: the failure reason and the reversed amount. */
export function statusEffects(to: PayoutStatus, amount: number, partialAmount: number | undefined) {
  return {
    failure_reason: to === "failed" ? "destination_rejected" : to === "returned" ? "returned_by_bank" : null,
    amount_reversed: to === "reversed" ? amount : to === "partially_reversed" ? (partialAmount ?? 0) : 0,
  };
}

/**
 * The `amount` of a move: required for a partial reversal (strictly between 0
 * and the payout amount), refused on every other move.
 */
export function checkMoveAmount(to: PayoutStatus, payoutAmount: number, amount: number | undefined): void {
  if (to === "partially_reversed") {
    const rule = `an integer greater than 0 and less than the payout amount (${payoutAmount})`;
    if (amount === undefined) throw new ApiError("invalid_request", `amount is required for a partial reversal: ${rule}.`, "amount");
    // A value that is there is told as wrong, with what it was, not as missing.
    if (!Number.isInteger(amount) || amount <= 0 || amount >= payoutAmount) {
      throw new ApiError("invalid_request", `amount must be ${rule} for a partial reversal; got ${amount}.`, "amount");
    }
  } else if (amount !== undefined) {
    throw new ApiError("invalid_request", `amount is only accepted when moving to "partially_reversed"; remove it.`, "amount");
  }
}

/** The outcome a test destination token leads to (fixtures/test-destinations.json). */
export type DestinationOutcome = "succeeded" | "failed" | "returned";

export interface TestDestination {
  token: string;
  type: DestinationType;
  outcome: DestinationOutcome;
  masked: string;
  description: string;
}

/** The automatic moves of `--payouts auto`, as offsets from created_at (docs/api.md). */
export const AUTO_MOVES: Record<DestinationOutcome, readonly { to: PayoutStatus; afterMs: number }[]> = {
  succeeded: [
    { to: "processing", afterMs: 2_000 },
    { to: "succeeded", afterMs: 5_000 },
  ],
  failed: [{ to: "failed", afterMs: 2_000 }],
  returned: [{ to: "returned", afterMs: 2_000 }],
};

/** The contracts of /v1/sandbox's clock, reset and payout moves (docs/api.md and docs/testing.md). */
import * as z from "zod";
import { timestampSchema } from "../domain/answer-schemas.js";
import { MAX_ADVANCE_SECONDS } from "../domain/duration.js";
import { MAX_AMOUNT } from "../domain/money.js";
import { PAYOUT_MOVES, PAYOUT_STATUSES } from "../resources/payouts/machine.js";
import { byResetCount } from "../domain/resources.js";
import { need, needOneOf } from "../domain/validation.js";
import { noBody } from "./common.js";

const SECONDS_RULE = `an integer from 1 to ${MAX_ADVANCE_SECONDS}`;

/** `POST /v1/sandbox/clock/advance`. */
export const clockAdvanceInput = z.lazy(() =>
  z.strictObject({
    seconds: z
      .number({ error: need("seconds", SECONDS_RULE) })
      .int({ error: `seconds must be ${SECONDS_RULE}; fractions are not allowed.` })
      .min(1, { error: `seconds must be ${SECONDS_RULE}.` })
      .max(MAX_ADVANCE_SECONDS, { error: `seconds must be ${SECONDS_RULE} (one year).` }),
  }),
);

/** Where a drawn move may lead: every status but the first, which no move enters. */
const TARGETS = PAYOUT_STATUSES.filter((status) => PAYOUT_MOVES.some((move) => move.to === status));

// checkMoveAmount's words, with the bound every payout amount is under.
const PARTIAL_AMOUNT_RULE = `an integer greater than 0 and less than the payout amount (at most ${MAX_AMOUNT - 1})`;

/**
 * `POST /v1/sandbox/payouts/:id/transition`. `amount` belongs to a partial reversal only
 * (checkMoveAmount, which also holds it below the payout's own amount); the document says so too.
 */
export const payoutTransitionInput = z.lazy(() =>
  z
    .strictObject({
      to: z.enum(TARGETS, { error: needOneOf("to", TARGETS) }),
      amount: z
        .number({ error: need("amount", "an integer in minor units") })
        .int({ error: `amount must be ${PARTIAL_AMOUNT_RULE}; fractions are not allowed.` })
        .min(1, { error: `amount must be ${PARTIAL_AMOUNT_RULE}.` })
        .max(MAX_AMOUNT - 1, { error: `amount must be ${PARTIAL_AMOUNT_RULE}.` })
        .optional(),
    })
    .meta({
      allOf: [{ if: { not: { properties: { to: { enum: ["partially_reversed"] } } } }, then: { not: { required: ["amount"] } } }],
    }),
);

/** The instance's clock (docs/api.md), as both clock operations answer it. */
export const clockSchema = z.lazy(() =>
  z.strictObject({
    object: z.literal("clock"),
    now: timestampSchema,
    offset_seconds: z.number(),
    time_scale: z.number(),
  }),
);

/** Reset takes no body: any field in one is refused as unknown (docs/api.md). */
export const resetInput = noBody;

/** What a reset answers (docs/testing.md): the counts of what it deleted, one per resource the registry has a reset count. */
export const resetAnswerSchema = z.lazy(() =>
  z.strictObject({
    object: z.literal("reset"),
    deleted: z.strictObject(byResetCount(() => z.number().int())),
  }),
);

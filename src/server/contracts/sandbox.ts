import * as z from "zod";
import { MAX_ADVANCE_SECONDS } from "../../domain/duration.js";
import { PAYOUT_STATUSES } from "../../domain/payout.js";
import { need, needOneOf } from "../../domain/validation.js";

/**
 * The inputs of the sandbox's clock and payout moves, as the API route and the dashboard's forms
 * both validate them: one definition, so the two refuse alike.
 */

const SECONDS_RULE = `an integer from 1 to ${MAX_ADVANCE_SECONDS}`;

/** `POST /v1/sandbox/clock/advance`. */
export const clockAdvanceInput = z.strictObject({
  seconds: z
    .number({ error: need("seconds", SECONDS_RULE) })
    .int({ error: `seconds must be ${SECONDS_RULE}; fractions are not allowed.` })
    .min(1, { error: `seconds must be ${SECONDS_RULE}.` })
    .max(MAX_ADVANCE_SECONDS, { error: `seconds must be ${SECONDS_RULE} (one year).` }),
});

/** `POST /v1/sandbox/payouts/:id/transition`. */
export const payoutTransitionInput = z.strictObject({
  to: z.enum(PAYOUT_STATUSES, { error: needOneOf("to", PAYOUT_STATUSES) }),
  amount: z.number({ error: need("amount", "an integer in minor units") }).optional(),
});

/** The contracts of /v1/sandbox's clock, reset and payout moves (docs/api.md and docs/testing.md). */
import * as z from "zod";
import { timestampSchema } from "../domain/answer-schemas.js";
import { MAX_ADVANCE_SECONDS } from "../domain/duration.js";
import { PAYOUT_STATUSES } from "../domain/payout.js";
import { need, needOneOf } from "../domain/validation.js";
import { noBody } from "./common.js";

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

/** The instance's clock (docs/api.md), as both clock operations answer it. */
export const clockSchema = z.strictObject({
  object: z.literal("clock"),
  now: timestampSchema,
  offset_seconds: z.number(),
  time_scale: z.number(),
});

/** Reset takes no body: any field in one is refused as unknown (docs/api.md). */
export const resetInput = noBody;

/** What a reset answers (docs/testing.md): the counts of what it deleted. */
export const resetAnswerSchema = z.strictObject({
  object: z.literal("reset"),
  deleted: z.strictObject({ payment_intents: z.number().int(), payouts: z.number().int(), events: z.number().int() }),
});

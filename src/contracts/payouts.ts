/** The contracts of /v1/payouts (docs/api.md). */
import * as z from "zod";
import { withRequestIdSchema } from "../domain/answer-schemas.js";
import { DESTINATION_TYPES, PAYOUT_STATUSES } from "../domain/payout.js";
import { amountSchema, currencySchema, descriptionSchema, need, needOneOf } from "../domain/validation.js";
import { PAYOUT_SHAPE, type PayoutResource } from "../store/repos/payouts.js";
import { listQuerySchema } from "./common.js";

/**
 * A payout as the API shows it. Its schema is made from the same field list as the store's two
 * JSON forms of it (store/resource-shape.ts), so the three cannot drift apart.
 */
export const payoutSchema = PAYOUT_SHAPE.schema;
export type { PayoutResource };

export const payoutAnswer = withRequestIdSchema(payoutSchema);

/** `POST /v1/payouts`. */
export const createPayoutInput = z.strictObject({
  amount: amountSchema,
  currency: currencySchema,
  destination_type: z.enum(DESTINATION_TYPES, { error: needOneOf("destination_type", DESTINATION_TYPES) }),
  destination_token: z.string({ error: need("destination_token", "a destination token such as tok_card_visa") }),
  description: descriptionSchema.optional(),
});

/** `GET /v1/payouts`'s query. */
export const listPayoutsQuery = listQuerySchema({ name: "status", values: PAYOUT_STATUSES });

/** The contracts of /v1/payouts (docs/api.md). */
import * as z from "zod";
import { withRequestIdSchema } from "../../domain/answer-schemas.js";
import { DESTINATION_TYPES, PAYOUT_STATUSES } from "./machine.js";
import { amountSchema, currencySchema, descriptionSchema, need, needOneOf } from "../../domain/validation.js";
import { holdsCardNumber } from "../../domain/masking.js";
import type { TestDestination } from "./machine.js";
import { TEST_DESTINATIONS } from "../../fixture-data.js";
import { PAYOUT_SHAPE, type PayoutResource } from "./store.js";
import { listQuerySchema } from "../../contracts/common.js";

/**
 * A payout as the API shows it. Its schema is made from the same field list as the store's two
 * JSON forms of it (store/resource-shape.ts), so the three cannot drift apart.
 */
export const payoutSchema = PAYOUT_SHAPE.schema;
export type { PayoutResource };

export const payoutAnswer = withRequestIdSchema(payoutSchema);

/** The refusal of a card number where a destination token belongs. */
export const CARD_NUMBER_TOKEN =
  "destination_token must be a destination token (e.g. tok_card_visa), never a card number: card numbers are not accepted by this API.";
/** The refusal of a token that is not a test destination. */
export const unknownToken = (token: string | undefined, destinations: readonly TestDestination[]) =>
  `Unknown destination_token${token === undefined ? "" : ` "${token}"`}. Use a test token: ${destinations.map((d) => d.token).join(", ")}.`;

/**
 * The `destination_token` of a new payout: one of the test tokens, so that the OpenAPI document
 * lists them. A card number (masked on entry) and an unknown token are told apart, as ever.
 */
export function destinationTokenSchema(destinations: readonly TestDestination[]) {
  const wrongType = need("destination_token", "a destination token such as tok_card_visa");
  return z.enum(destinations.map((d) => d.token) as [string, ...string[]], {
    error: (issue) =>
      typeof issue.input !== "string" ? wrongType(issue) : holdsCardNumber(issue.input) ? CARD_NUMBER_TOKEN : unknownToken(issue.input, destinations),
  });
}

/**
 * What `destinationFor` checks across the two fields, for the OpenAPI document: each
 * destination_type takes its own tokens (JSON Schema's if/then, which validators and mock servers run).
 */
export function destinationPairing(destinations: readonly TestDestination[]) {
  return {
    allOf: DESTINATION_TYPES.map((type) => ({
      if: { properties: { destination_type: { enum: [type] } }, required: ["destination_type"] },
      then: { properties: { destination_token: { enum: destinations.filter((d) => d.type === type).map((d) => d.token) } } },
    })),
  };
}

/** `POST /v1/payouts`. */
export const createPayoutInput = z.lazy(() =>
  z
    .strictObject({
      amount: amountSchema,
      currency: currencySchema,
      destination_type: z.enum(DESTINATION_TYPES, { error: needOneOf("destination_type", DESTINATION_TYPES) }),
      destination_token: destinationTokenSchema(TEST_DESTINATIONS),
      description: descriptionSchema.optional(),
    })
    .meta(destinationPairing(TEST_DESTINATIONS)),
);

/** `GET /v1/payouts`'s query. */
export const listPayoutsQuery = listQuerySchema("po", { name: "status", values: PAYOUT_STATUSES });

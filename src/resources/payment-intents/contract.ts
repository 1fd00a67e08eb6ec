/** The contracts of /v1/payment_intents (docs/api.md). */
import * as z from "zod";
import { withRequestIdSchema } from "../../domain/answer-schemas.js";
import { CAPTURE_METHODS, PAYMENT_INTENT_STATES } from "./machine.js";
import { amountSchema, currencySchema, descriptionSchema, need, needOneOf } from "../../domain/validation.js";
import type { TestCard } from "../../domain/test-cards.js";
import { TEST_CARDS } from "../../fixture-data.js";
import { PAYMENT_INTENT_SHAPE, type PaymentIntentResource } from "./store.js";
import { listQuerySchema, noBody } from "../../contracts/common.js";

/**
 * A payment intent as the API shows it. Its schema is made from the same field list as the
 * store's two JSON forms of it (store/resource-shape.ts), so the three cannot drift apart.
 */
export const paymentIntentSchema = PAYMENT_INTENT_SHAPE.schema;
export type { PaymentIntentResource };

export const paymentIntentAnswer = withRequestIdSchema(paymentIntentSchema);

/** `POST /v1/payment_intents`. */
export const createPaymentIntentInput = z.lazy(() =>
  z.strictObject({
    amount: amountSchema,
    currency: currencySchema.optional(),
    description: descriptionSchema.optional(),
    capture_method: z.enum(CAPTURE_METHODS, { error: needOneOf("capture_method", CAPTURE_METHODS) }).optional(),
  }),
);

/** The refusal of a payment method that is not a test method. */
export const unknownPaymentMethod = (paymentMethod: string, cards: readonly TestCard[]) =>
  `Unknown payment_method "${paymentMethod}". Use a test method: ${cards.map((c) => c.payment_method).join(", ")}.`;

/** The `payment_method` of an authorization: one of the test methods, so that the OpenAPI document lists them. */
export function paymentMethodSchema(cards: readonly TestCard[]) {
  const wrongType = need("payment_method", 'a test payment method such as "pm_card_visa"');
  return z.enum(cards.map((c) => c.payment_method) as [string, ...string[]], {
    error: (issue) => (typeof issue.input === "string" ? unknownPaymentMethod(issue.input, cards) : wrongType(issue)),
  });
}

/** `POST /v1/payment_intents/:id/authorize`. */
export const authorizeInput = z.lazy(() =>
  z.strictObject({
    payment_method: paymentMethodSchema(TEST_CARDS).optional(),
  }),
);

/** `POST /v1/payment_intents/:id/capture` and `/cancel` take no body. */
export const captureInput = noBody;
export const cancelInput = noBody;

/** `GET /v1/payment_intents`'s query. */
export const listPaymentIntentsQuery = listQuerySchema("pi", { name: "state", values: PAYMENT_INTENT_STATES });

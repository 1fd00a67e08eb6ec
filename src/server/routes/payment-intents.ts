import { Hono } from "hono";
import * as z from "zod";
import { withRequestIdSchema } from "../../domain/answer-schemas.js";
import { CAPTURE_METHODS, PAYMENT_INTENT_STATES } from "../../domain/payment-intent.js";
import { amountSchema, currencySchema, descriptionSchema, needOneOf, parseOrThrow } from "../../domain/validation.js";
import { TEST_CARDS } from "../../fixture-data.js";
import { paymentMethodSchema } from "../../services/payment-intents.js";
import { PAYMENT_INTENT_SHAPE } from "../../store/repos/payment-intents.js";
import { companyOf, type AppDeps, type AppEnv } from "../env.js";
import { jsonBody } from "../middleware/json-body.js";
import { idempotencyKey } from "../middleware/idempotency-key.js";
import { listQuery, listQueryParser } from "../list-query.js";
import type { Operation } from "../openapi/operation.js";
import { answering, EXAMPLE_CAPTURED_PAYMENT_INTENT, EXAMPLE_PAYMENT_INTENT, listing } from "../openapi/examples.js";
import { listEnvelopeSchema, listResponse, resourceResponse, changeRequest, idempotentResponse } from "../respond.js";

const createSchema = z.strictObject({
  amount: amountSchema,
  currency: currencySchema.optional(),
  description: descriptionSchema.optional(),
  capture_method: z.enum(CAPTURE_METHODS, { error: needOneOf("capture_method", CAPTURE_METHODS) }).optional(),
});

const authorizeSchema = z.strictObject({
  payment_method: paymentMethodSchema(TEST_CARDS).optional(),
});

const noBodySchema = z.strictObject({});

const LIST_QUERY = listQuery({ name: "state", values: PAYMENT_INTENT_STATES }, "pi");

const TRANSITIONS = ["authorize", "capture", "cancel"] as const;

const ANSWER = withRequestIdSchema(PAYMENT_INTENT_SHAPE.schema);

const TRANSITION_EXAMPLES = {
  authorize: { body: { payment_method: "pm_card_visa" }, answer: answering(EXAMPLE_CAPTURED_PAYMENT_INTENT) },
  capture: { body: {}, answer: answering(EXAMPLE_CAPTURED_PAYMENT_INTENT) },
  cancel: { body: {}, answer: answering({ ...EXAMPLE_PAYMENT_INTENT, state: "canceled" }) },
};

/** The operations below, for the OpenAPI document (docs/api.md). */
export const PAYMENT_INTENT_OPERATIONS: readonly Operation[] = [
  { operationId: "createPaymentIntent", method: "post", path: "/", summary: "Create a payment intent", body: createSchema, idempotencyKey: "required", answers: { 201: ANSWER },
    example: { body: { amount: 4200, currency: "EUR", description: "Order 42" }, answer: answering(EXAMPLE_PAYMENT_INTENT) } },
  { operationId: "listPaymentIntents", method: "get", path: "/", summary: "List payment intents, newest first", query: LIST_QUERY.schema, answers: { 200: listEnvelopeSchema(PAYMENT_INTENT_SHAPE.schema) },
    example: { answer: listing([EXAMPLE_PAYMENT_INTENT]) } },
  { operationId: "getPaymentIntent", method: "get", path: "/:id", summary: "Read a payment intent", answers: { 200: ANSWER }, example: { answer: answering(EXAMPLE_PAYMENT_INTENT) } },
  ...TRANSITIONS.map((name): Operation => ({
    operationId: `${name}PaymentIntent`,
    method: "post",
    path: `/:id/${name}`,
    summary: `${name[0]!.toUpperCase()}${name.slice(1)} a payment intent`,
    body: name === "authorize" ? authorizeSchema : noBodySchema,
    idempotencyKey: "optional",
    answers: { 200: ANSWER },
    example: TRANSITION_EXAMPLES[name],
  })),
];

/** /v1/payment_intents: create, read, list, authorize, capture, cancel (docs/api.md). */
export function paymentIntentRoutes(deps: AppDeps) {
  const { runIdempotently, paymentIntents } = deps;
  const app = new Hono<AppEnv>();
  const parseListQuery = listQueryParser(LIST_QUERY);

  app.post("/", jsonBody(), idempotencyKey({ required: true }), (c) => {
    const { body, company, request } = changeRequest(c);
    return idempotentResponse(c, runIdempotently(request, (work) => {
      const input = parseOrThrow(createSchema, body);
      return { status: 201, resource: paymentIntents.toResource(paymentIntents.create(work, company, input)) };
    }));
  });

  app.get("/", (c) => {
    const query = parseListQuery(c, paymentIntents.seqOf);
    const page = paymentIntents.list(companyOf(c).id, query);
    return listResponse(c, page.json, page.hasMore);
  });

  app.get("/:id", (c) => resourceResponse(c, paymentIntents.toResource(paymentIntents.get(companyOf(c).id, c.req.param("id")))));

  /** authorize, capture and cancel share one shape: optional key, load, validate, move. */
  const transition = (name: (typeof TRANSITIONS)[number]) =>
    app.post(`/:id/${name}`, jsonBody(), idempotencyKey({ required: false }), (c) => {
      const { body, company, request } = changeRequest(c);
      return idempotentResponse(c, runIdempotently(request, (work) => {
        const row = paymentIntents.get(company.id, c.req.param("id"));
        let updated;
        if (name === "authorize") {
          const input = parseOrThrow(authorizeSchema, body);
          updated = paymentIntents.authorize(work, row, paymentIntents.cardForPaymentMethod(input.payment_method ?? "pm_card_visa"));
        } else {
          parseOrThrow(noBodySchema, body);
          updated = name === "capture" ? paymentIntents.capture(work, row) : paymentIntents.cancel(work, row);
        }
        return { status: 200, resource: paymentIntents.toResource(updated) };
      }));
    });
  for (const name of TRANSITIONS) transition(name);

  return app;
}


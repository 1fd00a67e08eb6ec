import { Hono } from "hono";
import * as z from "zod";
import { withRequestIdSchema } from "../../domain/answer-schemas.js";
import { DESTINATION_TYPES, PAYOUT_STATUSES } from "../../domain/payout.js";
import { amountSchema, currencySchema, descriptionSchema, needOneOf, parseOrThrow } from "../../domain/validation.js";
import { TEST_DESTINATIONS } from "../../fixture-data.js";
import { destinationPairing, destinationTokenSchema } from "../../services/payouts.js";
import { PAYOUT_SHAPE } from "../../store/repos/payouts.js";
import { companyOf, type AppDeps, type AppEnv } from "../env.js";
import { jsonBody } from "../middleware/json-body.js";
import { idempotencyKey } from "../middleware/idempotency-key.js";
import { listQuery, listQueryParser } from "../list-query.js";
import type { Operation } from "../openapi/operation.js";
import { answering, EXAMPLE_PAYOUT, listing } from "../openapi/examples.js";
import { listEnvelopeSchema, listResponse, resourceResponse, changeRequest, idempotentResponse } from "../respond.js";

const createSchema = z.strictObject({
  amount: amountSchema,
  currency: currencySchema,
  destination_type: z.enum(DESTINATION_TYPES, { error: needOneOf("destination_type", DESTINATION_TYPES) }),
  destination_token: destinationTokenSchema(TEST_DESTINATIONS),
  description: descriptionSchema.optional(),
}).meta(destinationPairing(TEST_DESTINATIONS));

const LIST_QUERY = listQuery({ name: "status", values: PAYOUT_STATUSES }, "po");

const ANSWER = withRequestIdSchema(PAYOUT_SHAPE.schema);

/** The operations below, for the OpenAPI document (docs/api.md). */
export const PAYOUT_OPERATIONS: readonly Operation[] = [
  { operationId: "createPayout", method: "post", path: "/", summary: "Create a payout", body: createSchema, idempotencyKey: "required", answers: { 201: ANSWER },
    example: { body: { amount: 5000, currency: "EUR", destination_type: "card", destination_token: "tok_card_visa" }, answer: answering(EXAMPLE_PAYOUT) } },
  { operationId: "listPayouts", method: "get", path: "/", summary: "List payouts, newest first", query: LIST_QUERY.schema, answers: { 200: listEnvelopeSchema(PAYOUT_SHAPE.schema) },
    example: { answer: listing([EXAMPLE_PAYOUT]) } },
  { operationId: "getPayout", method: "get", path: "/:id", summary: "Read a payout", answers: { 200: ANSWER }, example: { answer: answering(EXAMPLE_PAYOUT) } },
];

/** /v1/payouts: create, read, list (docs/api.md). */
export function payoutRoutes({ runIdempotently, payouts }: AppDeps) {
  const app = new Hono<AppEnv>();
  const parseListQuery = listQueryParser(LIST_QUERY);

  app.post("/", jsonBody(), idempotencyKey({ required: true }), (c) => {
    const { body, company, request } = changeRequest(c);
    return idempotentResponse(c, runIdempotently(request, (work) => {
      const input = parseOrThrow(createSchema, body);
      return { status: 201, resource: payouts.toResource(payouts.create(work, company, input)) };
    }));
  });

  app.get("/", (c) => {
    const query = parseListQuery(c, payouts.seqOf);
    const page = payouts.list(companyOf(c).id, query);
    return listResponse(c, page.json, page.hasMore);
  });

  app.get("/:id", (c) => resourceResponse(c, payouts.toResource(payouts.get(companyOf(c).id, c.req.param("id")))));

  return app;
}

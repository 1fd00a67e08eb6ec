import { Hono } from "hono";
import * as z from "zod";
import { CAPTURE_METHODS, PAYMENT_INTENT_STATES } from "../../domain/payment-intent.js";
import { amountSchema, currencySchema, descriptionSchema, need, needOneOf, parseOrThrow } from "../../domain/validation.js";
import { companyOf, type AppDeps, type AppEnv } from "../env.js";
import { jsonBody } from "../middleware/json-body.js";
import { idempotencyKey } from "../middleware/idempotency-key.js";
import { listQueryParser } from "../list-query.js";
import { listResponse, resourceResponse, changeRequest, idempotentResponse } from "../respond.js";

const createSchema = z.strictObject({
  amount: amountSchema,
  currency: currencySchema.optional(),
  description: descriptionSchema.optional(),
  capture_method: z.enum(CAPTURE_METHODS, { error: needOneOf("capture_method", CAPTURE_METHODS) }).optional(),
});

const authorizeSchema = z.strictObject({
  payment_method: z.string({ error: need("payment_method", "a test payment method such as \"pm_card_visa\"") }).optional(),
});

const noBodySchema = z.strictObject({});

/** /v1/payment_intents: create, read, list, authorize, capture, cancel (SPEC §4). */
export function paymentIntentRoutes(deps: AppDeps) {
  const { runIdempotently, paymentIntents } = deps;
  const app = new Hono<AppEnv>();
  const parseListQuery = listQueryParser({ name: "state", values: PAYMENT_INTENT_STATES });

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
  const transition = (name: "authorize" | "capture" | "cancel") =>
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
  transition("authorize");
  transition("capture");
  transition("cancel");

  return app;
}


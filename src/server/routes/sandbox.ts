import { Hono } from "hono";
import * as z from "zod";
import { idOf, timestampSchema, withRequestIdSchema } from "../../domain/answer-schemas.js";
import { ApiError } from "../../domain/errors.js";
import { EVENT_TYPES } from "../../domain/events.js";
import { faultRuleSchema } from "../../domain/faults.js";
import { amountSchema, currencySchema, freeFormObject, need, needOneOf, parseOrThrow } from "../../domain/validation.js";
import { ClockRangeError } from "../../runtime/clock.js";
import { eventResource, eventSchema } from "../../services/events.js";
import { faultSchema } from "../../services/faults.js";
import { PAYOUT_SHAPE } from "../../store/repos/payouts.js";
import { clockAdvanceInput as advanceSchema, payoutTransitionInput as transitionSchema } from "../contracts/sandbox.js";
import type { AppDeps, AppEnv } from "../env.js";
import { jsonBody } from "../middleware/json-body.js";
import { idempotencyKey } from "../middleware/idempotency-key.js";
import type { Operation } from "../openapi/operation.js";
import { answering, EXAMPLE_CLOCK, EXAMPLE_EVENT, EXAMPLE_FAULT, EXAMPLE_PAYOUT, listing } from "../openapi/examples.js";
import { singleQuery } from "../list-query.js";
import { resourceResponse, changeRequest, idempotentResponse, listEnvelopeSchema, listResponse } from "../respond.js";

/** Reset takes no body: any field in one is refused as unknown (docs/api.md). */
const resetSchema = z.strictObject({});

/** The list of fault rules takes no query: a typo must not pass unnoticed. */
const noQuery = z.strictObject({});

/**
 * The ingest body: a known type, and data with the three validated fields; the
 * rest of data is free-form, but a `__proto__` key anywhere in it is refused.
 */
const ingestSchema = z.strictObject({
  type: z.enum(EVENT_TYPES, { error: needOneOf("type", EVENT_TYPES) }),
  data: freeFormObject(
    z.looseObject(
      {
        reference: z.string({ error: need("data.reference", "a string") }),
        amount: amountSchema,
        currency: currencySchema,
      },
      { error: need("data", "an object with reference, amount and currency") },
    ),
  ),
});

/** The instance's clock (docs/api.md), as both clock routes answer it. */
const clockSchema = z.strictObject({
  object: z.literal("clock"),
  now: timestampSchema,
  offset_seconds: z.number(),
  time_scale: z.number(),
});

/** What a reset answers (docs/testing.md): the counts of what it deleted. */
const resetAnswerSchema = z.strictObject({
  object: z.literal("reset"),
  deleted: z.strictObject({ payment_intents: z.number().int(), payouts: z.number().int(), events: z.number().int() }),
});

/** What `DELETE /v1/sandbox/faults/:id` answers. */
const deletedFaultSchema = z.strictObject({ id: idOf("flt"), object: z.literal("fault"), deleted: z.literal(true) });

/** What `DELETE /v1/sandbox/faults` answers: how many rules it removed. */
const faultsClearedSchema = z.strictObject({ object: z.literal("faults_cleared"), deleted: z.number().int().min(0) });

/** The operations below, for the OpenAPI document (docs/api.md). */
export const SANDBOX_OPERATIONS: readonly Operation[] = [
  { operationId: "getClock", method: "get", path: "/clock", summary: "Read the virtual clock", answers: { 200: withRequestIdSchema(clockSchema) }, example: { answer: answering(EXAMPLE_CLOCK) } },
  {
    operationId: "advanceClock",
    method: "post",
    path: "/clock/advance",
    summary: "Move the virtual clock forward; everything that falls due runs before the answer",
    body: advanceSchema,
    answers: { 200: withRequestIdSchema(clockSchema) },
    example: { body: { seconds: 3600 }, answer: answering(EXAMPLE_CLOCK) },
  },
  { operationId: "addFaultRule", method: "post", path: "/faults", summary: "Add a fault rule: make matching requests of this company fail on purpose", body: faultRuleSchema, answers: { 201: withRequestIdSchema(faultSchema) },
    example: { body: { fault: "server_error", match: EXAMPLE_FAULT.match }, answer: answering(EXAMPLE_FAULT) } },
  { operationId: "listFaultRules", method: "get", path: "/faults", summary: "List this company's active fault rules, oldest first", query: noQuery, answers: { 200: listEnvelopeSchema(faultSchema) },
    example: { answer: listing([EXAMPLE_FAULT]) } },
  { operationId: "clearFaultRules", method: "delete", path: "/faults", summary: "Remove every fault rule of this company", answers: { 200: withRequestIdSchema(faultsClearedSchema) },
    example: { answer: answering({ object: "faults_cleared", deleted: 1 }) } },
  { operationId: "deleteFaultRule", method: "delete", path: "/faults/:id", summary: "Remove one fault rule", answers: { 200: withRequestIdSchema(deletedFaultSchema) },
    example: { answer: answering({ id: EXAMPLE_FAULT.id, object: "fault", deleted: true }) } },
  { operationId: "resetSandbox", method: "post", path: "/reset", summary: "Delete this company's activity", body: resetSchema, answers: { 200: withRequestIdSchema(resetAnswerSchema) },
    example: { body: {}, answer: answering({ object: "reset", deleted: { payment_intents: 2, payouts: 1, events: 3 } }) } },
  {
    operationId: "transitionPayout",
    method: "post",
    path: "/payouts/:id/transition",
    summary: "Make one drawn move of a payout",
    body: transitionSchema,
    idempotencyKey: "optional",
    answers: { 200: withRequestIdSchema(PAYOUT_SHAPE.schema) },
    example: { body: { to: "processing" }, answer: answering({ ...EXAMPLE_PAYOUT, status: "processing" }) },
  },
  {
    operationId: "ingestWebhookEvent",
    method: "post",
    path: "/webhook_ingest",
    summary: "Record a test event and deliver it to the company's endpoints",
    body: ingestSchema,
    idempotencyKey: "optional",
    answers: { 201: eventSchema },
    example: {
      body: { type: "payout.succeeded", data: { reference: "POUT-3LOC4WVLB2", amount: 5000, currency: "EUR" } },
      answer: { ...EXAMPLE_EVENT, type: "payout.succeeded", data: { reference: "POUT-3LOC4WVLB2", amount: 5000, currency: "EUR" } },
    },
  },
];

/** /v1/sandbox: controls a real provider does not have (docs/api.md and docs/testing.md and docs/faults.md). */
export function sandboxRoutes({ clock, advanceClock, runIdempotently, payouts, resetSandbox, faults }: AppDeps) {
  const app = new Hono<AppEnv>();
  const clockResource = (): z.infer<typeof clockSchema> => ({
    object: "clock",
    now: clock.nowIso(),
    offset_seconds: clock.offsetSeconds(),
    time_scale: clock.timeScale,
  });

  app.get("/clock", (c) => resourceResponse(c, clockResource()));

  app.post("/clock/advance", jsonBody(), async (c) => {
    const { seconds } = parseOrThrow(advanceSchema, c.get("body"));
    try {
      await advanceClock(seconds);
    } catch (error) {
      // Repeated advances must not carry dates past year 9999: the clock refuses, unmoved.
      if (error instanceof ClockRangeError) throw new ApiError("invalid_request", error.message, "seconds");
      throw error;
    }
    return resourceResponse(c, clockResource());
  });

  /** docs/testing.md: deletes this company's activity; other companies, endpoints and keys stay. */
  app.post("/reset", jsonBody(), (c) => {
    parseOrThrow(resetSchema, c.get("body"));
    const deleted = resetSandbox(c.get("company").id);
    const answer: z.infer<typeof resetAnswerSchema> = { object: "reset", deleted };
    return resourceResponse(c, answer);
  });

  /** docs/faults.md: fault rules of this company; the body's schema is domain/faults.ts `faultRuleSchema`. */
  app.post("/faults", jsonBody(), (c) => resourceResponse(c, faults.add(c.get("company").id, c.get("body")), 201));

  app.get("/faults", (c) => {
    parseOrThrow(noQuery, singleQuery(c));
    return listResponse(c, faults.list(c.get("company").id).map((rule) => JSON.stringify(rule)), false);
  });

  app.delete("/faults", (c) => {
    const answer: z.infer<typeof faultsClearedSchema> = { object: "faults_cleared", deleted: faults.clear(c.get("company").id) };
    return resourceResponse(c, answer);
  });

  app.delete("/faults/:id", (c) => {
    const id = c.req.param("id");
    faults.remove(c.get("company").id, id);
    const answer: z.infer<typeof deletedFaultSchema> = { id, object: "fault", deleted: true };
    return resourceResponse(c, answer);
  });

  app.post("/payouts/:id/transition", jsonBody(), idempotencyKey({ required: false }), (c) => {
    const { body, company, request } = changeRequest(c);
    return idempotentResponse(c, runIdempotently(request, (work) => {
      const row = payouts.get(company.id, c.req.param("id"));
      const input = parseOrThrow(transitionSchema, body);
      return { status: 200, resource: payouts.toResource(payouts.moveManually(work, row, input.to, input.amount)) };
    }));
  });

  /** The seed's test-event ingestion: stored (masked) as a received event, then delivered. */
  app.post("/webhook_ingest", jsonBody(), idempotencyKey({ required: false }), (c) => {
    const { body, company, request } = changeRequest(c);
    return idempotentResponse(c, runIdempotently(request, (work) => {
      const input = parseOrThrow(ingestSchema, body);
      const objectId = typeof input.data.id === "string" ? input.data.id : null;
      const event = work.recordEvent({ companyId: company.id, type: input.type, objectId, data: input.data });
      return { status: 201, resource: eventResource(event), keepsRequestId: true };
    }));
  });

  return app;
}

// The dashboard's clock and payout buttons validate exactly as these calls do.

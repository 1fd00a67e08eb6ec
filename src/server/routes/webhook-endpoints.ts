import { Hono } from "hono";
import * as z from "zod";
import { chaosSchema } from "../../domain/chaos.js";
import { ApiError } from "../../domain/errors.js";
import { EVENT_TYPES } from "../../domain/events.js";
import { need, parseOrThrow } from "../../domain/validation.js";
import { CARD_NUMBER_IN_URL_RULE, hasNoCardNumber, isHttpUrl, WEBHOOK_URL_MAX_LENGTH, WEBHOOK_URL_RULE } from "../../domain/webhook-url.js";
import { withRequestIdSchema } from "../../domain/answer-schemas.js";
import {
  deletedEndpointResource,
  deletedEndpointSchema,
  insertEndpoint,
  toEndpointResource,
  webhookEndpointSchema,
} from "../../services/webhook-endpoints.js";
import { companyOf, type AppDeps, type AppEnv } from "../env.js";
import { jsonBody } from "../middleware/json-body.js";
import { idempotencyKey } from "../middleware/idempotency-key.js";
import { singleQuery } from "../list-query.js";
import type { Operation } from "../openapi/operation.js";
import { listEnvelopeSchema, listResponse, resourceResponse, changeRequest, idempotentResponse } from "../respond.js";

const ENABLED_EVENTS_RULE = `enabled_events must be a list of event types (${EVENT_TYPES.join(", ")}) or ["*"].`;

const createSchema = z.strictObject({
  url: z
    .string({ error: need("url", "the http:// or https:// address that receives the events") })
    .max(WEBHOOK_URL_MAX_LENGTH, { error: `url must be at most ${WEBHOOK_URL_MAX_LENGTH} characters.` })
    .refine(isHttpUrl, { error: `url ${WEBHOOK_URL_RULE}.` })
    .refine(hasNoCardNumber, { error: `url ${CARD_NUMBER_IN_URL_RULE}.` }),
  enabled_events: z
    .array(z.enum(["*", ...EVENT_TYPES], { error: ENABLED_EVENTS_RULE }), {
      error: need("enabled_events", `a list of event types (${EVENT_TYPES.join(", ")}) or ["*"]`),
    })
    .min(1, { error: "enabled_events must list at least one event type, or \"*\"." })
    .optional(),
  chaos: chaosSchema("chaos").nullable().optional(),
});

const noQuery = z.strictObject({});

const ANSWER = withRequestIdSchema(webhookEndpointSchema);

/** The operations below, for the OpenAPI document (SPEC §15). */
export const WEBHOOK_ENDPOINT_OPERATIONS: readonly Operation[] = [
  { operationId: "createWebhookEndpoint", method: "post", path: "/", summary: "Register a webhook endpoint", body: createSchema, idempotencyKey: "optional", answers: { 201: ANSWER } },
  { operationId: "listWebhookEndpoints", method: "get", path: "/", summary: "List the webhook endpoints", query: noQuery, answers: { 200: listEnvelopeSchema(webhookEndpointSchema) } },
  { operationId: "getWebhookEndpoint", method: "get", path: "/:id", summary: "Read a webhook endpoint", answers: { 200: ANSWER } },
  { operationId: "deleteWebhookEndpoint", method: "delete", path: "/:id", summary: "Delete a webhook endpoint (its pending deliveries stop)", answers: { 200: withRequestIdSchema(deletedEndpointSchema) } },
];

/** /v1/webhook_endpoints: where a company's events are delivered (SPEC §7). */
export function webhookEndpointRoutes({ store, clock, ids, runIdempotently, outbox }: AppDeps) {
  const app = new Hono<AppEnv>();

  const find = (companyId: string, id: string) => {
    const row = store.webhookEndpoints.byId(companyId, id);
    if (!row) throw new ApiError("not_found", `No such webhook endpoint: "${id}".`);
    return row;
  };

  app.post("/", jsonBody(), idempotencyKey({ required: false }), (c) => {
    const { body, company, request } = changeRequest(c);
    return idempotentResponse(c, runIdempotently(request, () => {
      const input = parseOrThrow(createSchema, body);
      const row = insertEndpoint(store, ids, { companyId: company.id, url: input.url, enabledEvents: input.enabled_events ?? ["*"], createdAt: clock.nowIso(), chaos: input.chaos });
      return { status: 201, resource: toEndpointResource(row) };
    }));
  });

  app.get("/", (c) => {
    parseOrThrow(noQuery, singleQuery(c));
    return listResponse(c, store.webhookEndpoints.live(companyOf(c).id).map((row) => JSON.stringify(toEndpointResource(row))), false);
  });

  app.get("/:id", (c) => resourceResponse(c, toEndpointResource(find(companyOf(c).id, c.req.param("id")))));

  app.delete("/:id", (c) => {
    const company = companyOf(c);
    const id = c.req.param("id");
    find(company.id, id);
    outbox.removeEndpoint(company.id, id);
    return resourceResponse(c, deletedEndpointResource(id));
  });

  return app;
}

// The dashboard's endpoint form validates exactly as this call does.
export { createSchema as webhookEndpointInput };

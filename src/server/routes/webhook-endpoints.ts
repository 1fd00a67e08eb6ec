import { Hono } from "hono";
import * as z from "zod";
import { ApiError } from "../../domain/errors.js";
import { parseOrThrow } from "../../domain/validation.js";
import { withRequestIdSchema } from "../../domain/answer-schemas.js";
import {
  createEndpoint,
  createEndpointSchema,
  deletedEndpointResource,
  deletedEndpointSchema,
  toEndpointResource,
  webhookEndpointSchema,
} from "../../services/webhook-endpoints.js";
import { companyOf, type AppDeps, type AppEnv } from "../env.js";
import { jsonBody } from "../middleware/json-body.js";
import { idempotencyKey } from "../middleware/idempotency-key.js";
import { singleQuery } from "../list-query.js";
import type { Operation } from "../openapi/operation.js";
import { answering, EXAMPLE_WEBHOOK_ENDPOINT, listing } from "../openapi/examples.js";
import { listEnvelopeSchema, listResponse, resourceResponse, changeRequest, idempotentResponse } from "../respond.js";

const noQuery = z.strictObject({});

const ANSWER = withRequestIdSchema(webhookEndpointSchema);

/** The operations below, for the OpenAPI document (docs/api.md). */
export const WEBHOOK_ENDPOINT_OPERATIONS: readonly Operation[] = [
  { operationId: "createWebhookEndpoint", method: "post", path: "/", summary: "Register a webhook endpoint", body: createEndpointSchema, idempotencyKey: "optional", answers: { 201: ANSWER },
    example: { body: { url: "http://127.0.0.1:3000/webhooks", enabled_events: ["*"] }, answer: answering(EXAMPLE_WEBHOOK_ENDPOINT) } },
  { operationId: "listWebhookEndpoints", method: "get", path: "/", summary: "List the webhook endpoints", query: noQuery, answers: { 200: listEnvelopeSchema(webhookEndpointSchema) },
    example: { answer: listing([EXAMPLE_WEBHOOK_ENDPOINT]) } },
  { operationId: "getWebhookEndpoint", method: "get", path: "/:id", summary: "Read a webhook endpoint", answers: { 200: ANSWER }, example: { answer: answering(EXAMPLE_WEBHOOK_ENDPOINT) } },
  { operationId: "deleteWebhookEndpoint", method: "delete", path: "/:id", summary: "Delete a webhook endpoint (its pending deliveries stop)", answers: { 200: withRequestIdSchema(deletedEndpointSchema) },
    example: { answer: answering({ id: EXAMPLE_WEBHOOK_ENDPOINT.id, object: "webhook_endpoint", deleted: true }) } },
];

/** /v1/webhook_endpoints: where a company's events are delivered (docs/webhooks.md). */
export function webhookEndpointRoutes(deps: AppDeps) {
  const { store, runIdempotently, outbox } = deps;
  const app = new Hono<AppEnv>();

  const find = (companyId: string, id: string) => {
    const row = store.webhookEndpoints.byId(companyId, id);
    if (!row) throw new ApiError("not_found", `No such webhook endpoint: "${id}".`);
    return row;
  };

  app.post("/", jsonBody(), idempotencyKey({ required: false }), (c) => {
    const { body, company, request } = changeRequest(c);
    return idempotentResponse(c, runIdempotently(request, () => ({ status: 201, resource: createEndpoint(deps, company.id, body) })));
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

import { Hono } from "hono";
import * as z from "zod";
import { ApiError } from "../../domain/errors.js";
import { EVENT_TYPES } from "../../domain/events.js";
import { parseOrThrow } from "../../domain/validation.js";
import { eventSchema } from "../../services/events.js";
import { eventWithDeliveries, eventWithDeliveriesSchema } from "../../services/deliveries-view.js";
import { companyOf, requestIdOf, type AppDeps, type AppEnv } from "../env.js";
import { jsonBody } from "../middleware/json-body.js";
import { idempotencyKey } from "../middleware/idempotency-key.js";
import { listQuery, listQueryParser } from "../list-query.js";
import type { Operation } from "../openapi/operation.js";
import { jsonResponse, listEnvelopeSchema, listResponse, changeRequest, idempotentResponse } from "../respond.js";

const NO_BODY = z.strictObject({});

const LIST_QUERY = listQuery({ name: "type", values: EVENT_TYPES });

/** The operations below, for the OpenAPI document (docs/api.md). */
export const EVENT_OPERATIONS: readonly Operation[] = [
  { operationId: "listEvents", method: "get", path: "/", summary: "List events, newest first", query: LIST_QUERY.schema, answers: { 200: listEnvelopeSchema(eventSchema) } },
  { operationId: "getEvent", method: "get", path: "/:id", summary: "Read an event with its deliveries and their attempts", answers: { 200: eventWithDeliveriesSchema } },
  {
    operationId: "resendEvent",
    method: "post",
    path: "/:id/resend",
    summary: "Deliver an event again to every endpoint listening now",
    body: NO_BODY,
    idempotencyKey: "optional",
    answers: { 200: eventWithDeliveriesSchema },
  },
];

/**
 * /v1/events (docs/webhooks.md). An event's own `request_id` is the request that caused
 * it, so a read answers with that one in the body; the `Request-Id` header names the read.
 */
export function eventRoutes({ store, runIdempotently, outbox }: AppDeps) {
  const app = new Hono<AppEnv>();
  const parseListQuery = listQueryParser(LIST_QUERY);
  const withDeliveries = (event: Parameters<typeof eventWithDeliveries>[1]) => eventWithDeliveries(store, event);

  const find = (companyId: string, id: string) => {
    const event = store.events.byId(companyId, id);
    if (!event) throw new ApiError("not_found", `No such event: "${id}".`);
    return event;
  };

  app.get("/", (c) => {
    const query = parseListQuery(c, store.events.seqOf);
    const page = store.events.list(companyOf(c).id, query);
    return listResponse(c, page.json, page.hasMore);
  });

  app.get("/:id", (c) => {
    const event = find(companyOf(c).id, c.req.param("id"));
    return jsonResponse(requestIdOf(c), JSON.stringify(withDeliveries(event)));
  });

  /** A new delivery to every endpoint listening now, whatever happened to the earlier ones. */
  app.post("/:id/resend", jsonBody(), idempotencyKey({ required: false }), (c) => {
    const { body, company, request } = changeRequest(c);
    return idempotentResponse(c, runIdempotently(request, () => {
      const event = find(company.id, c.req.param("id"));
      parseOrThrow(NO_BODY, body);
      outbox.enqueue(event);
      return { status: 200, resource: withDeliveries(event), keepsRequestId: true };
    }));
  });

  return app;
}

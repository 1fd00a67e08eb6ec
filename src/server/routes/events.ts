import { Hono } from "hono";
import * as z from "zod";
import { ApiError } from "../../domain/errors.js";
import { EVENT_TYPES } from "../../domain/events.js";
import { parseOrThrow } from "../../domain/validation.js";
import { eventResource } from "../../services/events.js";
import { deliveriesOf } from "../../webhooks/deliveries-view.js";
import { companyOf, requestIdOf, type AppDeps, type AppEnv } from "../env.js";
import { jsonBody } from "../middleware/json-body.js";
import { idempotencyKey } from "../middleware/idempotency-key.js";
import { listQueryParser } from "../list-query.js";
import { jsonResponse, listResponse, changeRequest, idempotentResponse } from "../respond.js";

const NO_BODY = z.strictObject({});

/**
 * /v1/events (SPEC §7). An event's own `request_id` is the request that caused
 * it, so a read answers with that one in the body; the `Request-Id` header names the read.
 */
export function eventRoutes({ store, runIdempotently, outbox }: AppDeps) {
  const app = new Hono<AppEnv>();
  const parseListQuery = listQueryParser({ name: "type", values: EVENT_TYPES });

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
    return jsonResponse(requestIdOf(c), JSON.stringify({ ...eventResource(event), deliveries: deliveriesOf(store, event.id) }));
  });

  /** A new delivery to every endpoint listening now, whatever happened to the earlier ones. */
  app.post("/:id/resend", jsonBody(), idempotencyKey({ required: false }), (c) => {
    const { body, company, request } = changeRequest(c);
    return idempotentResponse(c, runIdempotently(request, () => {
      const event = find(company.id, c.req.param("id"));
      parseOrThrow(NO_BODY, body);
      outbox.enqueue(event);
      return { status: 200, resource: { ...eventResource(event), deliveries: deliveriesOf(store, event.id) }, keepsRequestId: true };
    }));
  });

  return app;
}

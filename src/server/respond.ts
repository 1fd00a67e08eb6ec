import type { Context } from "hono";
import * as z from "zod";
import { requestIdSchema } from "../domain/answer-schemas.js";
import type { IdempotentAnswer, IdempotentRequest } from "../services/idempotency.js";
import type { Company } from "../store/repos/companies.js";
import { requestIdMember, withRequestId } from "../shared/json-text.js";
import { companyOf, requestIdOf, type AppEnv } from "./env.js";

/**
 * A JSON answer with its `Request-Id` header, its headers a plain object:
 * @hono/node-server writes such a Response straight out, while a Headers
 * object (which `c.json` plus a later `c.res.headers.set` would build) cost a
 * small request about as much as everything else paysim does for it.
 */
export function jsonResponse(requestId: string, text: string, status = 200, headers?: Record<string, string>): Response {
  return new Response(text, {
    status,
    headers: { "Content-Type": "application/json", "Request-Id": requestId, ...headers },
  });
}

/** A resource with this request's id as its last member. */
export function resourceResponse(c: Context<AppEnv>, resource: object, status: 200 | 201 = 200): Response {
  const requestId = requestIdOf(c);
  return jsonResponse(requestId, withRequestId(resource, requestId), status);
}

/** The answer of the idempotency layer once it is durable (a replay keeps the original body and request_id). */
export async function idempotentResponse(c: Context<AppEnv>, pending: Promise<IdempotentAnswer>): Promise<Response> {
  const answer = await pending;
  return jsonResponse(requestIdOf(c), answer.text, answer.status, answer.replayed ? { "Idempotent-Replayed": "true" } : undefined);
}

/** The list envelope (docs/api.md) that `listResponse` writes, around items of `item`'s schema (for the OpenAPI document). */
export function listEnvelopeSchema(item: z.ZodType) {
  return z.strictObject({ object: z.literal("list"), data: z.array(item), has_more: z.boolean(), request_id: requestIdSchema });
}

/** A list envelope (docs/api.md) around resources given as JSON text; `listEnvelopeSchema` describes it. */
export function listResponse(c: Context<AppEnv>, data: readonly string[], hasMore: boolean): Response {
  const requestId = requestIdOf(c);
  return jsonResponse(requestId, `{"object":"list","data":[${data.join(",")}],"has_more":${hasMore},${requestIdMember(requestId)}}`);
}

/**
 * A state-changing call for the idempotency layer, from what the route's
 * `jsonBody()` and `idempotencyKey()` middleware checked.
 */
export function changeRequest(c: Context<AppEnv>): { body: Record<string, unknown>; company: Company; request: IdempotentRequest } {
  const body = c.get("body");
  const company = companyOf(c);
  const request: IdempotentRequest = {
    companyId: company.id,
    requestId: requestIdOf(c),
    method: c.req.method,
    path: c.req.path,
    body,
    idempotencyKey: c.get("idempotencyKey"),
  };
  return { body, company, request };
}

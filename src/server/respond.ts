import type { Context } from "hono";
import { requestIdMember, withRequestId } from "../shared/json-text.js";
import { requestIdOf, type AppEnv } from "./env.js";

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

/** A list envelope (docs/api.md) around resources given as JSON text; contracts/common.ts `listEnvelopeSchema` describes it. */
export function listResponse(c: Context<AppEnv>, data: readonly string[], hasMore: boolean): Response {
  const requestId = requestIdOf(c);
  return jsonResponse(requestId, `{"object":"list","data":[${data.join(",")}],"has_more":${hasMore},${requestIdMember(requestId)}}`);
}

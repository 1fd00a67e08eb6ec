import type { Context } from "hono";
import type { CommandRequest, CommandResponse } from "../services/commands.js";
import type { Company } from "../store/repos/companies.js";
import { requestIdMember, withRequestId } from "../domain/json-text.js";
import { idempotencyKey, readJsonBody } from "./middleware/json-body.js";
import { companyOf, requestIdOf, type AppEnv } from "./env.js";

/** Answers built by `jsonAnswer` already carry their Request-Id header. */
const withRequestIdHeader = new WeakSet<Response>();

/**
 * A JSON answer with its `Request-Id` header, its headers a plain object:
 * @hono/node-server writes such a Response straight out, while a Headers
 * object (which `c.json` plus a later `c.res.headers.set` would build) cost a
 * small request about as much as everything else paysim does for it.
 */
export function jsonAnswer(requestId: string, text: string, status = 200, headers?: Record<string, string>): Response {
  const response = new Response(text, {
    status,
    headers: { "Content-Type": "application/json", "Request-Id": requestId, ...headers },
  });
  withRequestIdHeader.add(response);
  return response;
}

/** `jsonAnswer` for this request. */
export function jsonText(c: Context, text: string, status = 200, headers?: Record<string, string>): Response {
  return jsonAnswer(requestIdOf(c), text, status, headers);
}

/** Whether `response` was built by `jsonAnswer` (and so needs no Request-Id added). */
export function carriesRequestId(response: Response): boolean {
  return withRequestIdHeader.has(response);
}

/** Answers with a resource and this request's id. */
export function ok(c: Context<AppEnv>, resource: object, status: 200 | 201 = 200): Response {
  return jsonText(c, withRequestId(resource, requestIdOf(c)), status);
}

/** Answers with a command's stored text once it is durable (a replay keeps the original body and request_id). */
export async function sendCommand(c: Context<AppEnv>, pending: Promise<CommandResponse>): Promise<Response> {
  const response = await pending;
  return jsonText(c, response.text, response.status, response.replayed ? { "Idempotent-Replayed": "true" } : undefined);
}

/** A list envelope (SPEC §4) around resources given as JSON text. */
export function list(c: Context<AppEnv>, data: readonly string[], hasMore: boolean): Response {
  return jsonText(c, `{"object":"list","data":[${data.join(",")}],"has_more":${hasMore},${requestIdMember(requestIdOf(c))}}`);
}

/**
 * Reads a state-changing call into a command, in the SPEC §2 order: the body
 * (size, type, JSON) before the Idempotency-Key.
 */
export async function readCommand(
  c: Context<AppEnv>,
  { keyRequired }: { keyRequired: boolean },
): Promise<{ body: Record<string, unknown>; company: Company; request: CommandRequest }> {
  const body = await readJsonBody(c);
  const company = companyOf(c);
  const request: CommandRequest = {
    companyId: company.id,
    requestId: requestIdOf(c),
    method: c.req.method,
    path: c.req.path,
    body,
    idempotencyKey: idempotencyKey(c, keyRequired),
  };
  return { body, company, request };
}

import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { CommandRequest, CommandResponse } from "../services/commands.js";
import type { Company } from "../store/repos/companies.js";
import { idempotencyKey, readJsonBody } from "./middleware/json-body.js";
import type { AppEnv } from "./env.js";

/** Answers with a resource and this request's id. */
export function ok(c: Context<AppEnv>, resource: object, status: 200 | 201 = 200): Response {
  return c.json({ ...resource, request_id: c.get("requestId") }, status);
}

/** Answers with a command's stored text once it is durable (a replay keeps the original body and request_id). */
export async function sendCommand(c: Context<AppEnv>, pending: Promise<CommandResponse>): Promise<Response> {
  const response = await pending;
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  if (response.replayed) headers["Idempotent-Replayed"] = "true";
  return c.body(response.text, response.status as ContentfulStatusCode, headers);
}

/** A list envelope (SPEC §4). */
export function list(c: Context<AppEnv>, data: object[], hasMore: boolean): Response {
  return c.json({ object: "list", data, has_more: hasMore, request_id: c.get("requestId") });
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
  const company = c.get("company");
  const request: CommandRequest = {
    companyId: company.id,
    requestId: c.get("requestId"),
    method: c.req.method,
    path: c.req.path,
    body,
    idempotencyKey: idempotencyKey(c, keyRequired),
  };
  return { body, company, request };
}

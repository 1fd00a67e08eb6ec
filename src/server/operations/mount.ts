import type { Context, Hono, MiddlewareHandler } from "hono";
import type { AppDeps, AppEnv } from "../env.js";
import { companyOf, requestIdOf } from "../env.js";
import { idempotencyKey } from "../middleware/idempotency-key.js";
import { jsonBody } from "../middleware/json-body.js";
import { jsonResponse, listResponse, resourceResponse } from "../respond.js";
import type { Operation } from "./define.js";
import { rememberedQueryParser } from "./query.js";
import { prepared, runOperation, type IncomingCall, type Outcome } from "./run.js";

/**
 * Registers each operation as a Hono route on `app`: its body read (`jsonBody`, only where it
 * takes one, so an unknown route or method is a 404/405 whatever its body), its Idempotency-Key
 * checked, then the steps every way in shares (run.ts), and the outcome sent.
 */
export function mountOperations(app: Hono<AppEnv>, deps: AppDeps, operations: readonly Operation[]): void {
  for (const operation of operations) {
    const middleware: MiddlewareHandler<AppEnv>[] = [];
    if (operation.body) middleware.push(jsonBody());
    if (operation.idempotencyKey) middleware.push(idempotencyKey({ required: operation.idempotencyKey === "required" }));
    const parseQuery = operation.query ? rememberedQueryParser(operation.query) : () => undefined;

    const incoming = (c: Context<AppEnv>): IncomingCall => ({
      deps,
      company: companyOf(c),
      requestId: requestIdOf(c),
      params: c.req.param() as Record<string, string>,
      rawBody: operation.body ? c.get("body") : undefined,
      query: parseQuery(c),
      path: c.req.path,
      idempotencyKey: operation.idempotencyKey ? c.get("idempotencyKey") : undefined,
    });

    const handler =
      "held" in operation
        ? (c: Context<AppEnv>) => {
            const call = incoming(c);
            return operation.act(prepared(operation, call, { companyId: call.company.id, requestId: call.requestId, method: "GET", path: call.path, body: {}, idempotencyKey: undefined }), c);
          }
        : async (c: Context<AppEnv>) => send(c, await runOperation(operation, incoming(c)));

    app.on(operation.method.toUpperCase(), [operation.path], ...middleware, handler);
  }
}

/** The HTTP answer of an outcome. */
function send(c: Context<AppEnv>, outcome: Outcome): Response {
  if ("answered" in outcome) {
    const { answered } = outcome;
    return jsonResponse(requestIdOf(c), answered.text, answered.status, answered.replayed ? { "Idempotent-Replayed": "true" } : undefined);
  }
  if ("list" in outcome) return listResponse(c, outcome.list, outcome.hasMore);
  if (outcome.keepsRequestId) return jsonResponse(requestIdOf(c), JSON.stringify(outcome.resource), outcome.status ?? 200);
  return resourceResponse(c, outcome.resource, outcome.status ?? 200);
}

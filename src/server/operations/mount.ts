import type { Context, Hono } from "hono";
import type { AppDeps, AppEnv } from "../env.js";
import { companyOf, requestIdOf } from "../env.js";
import { idempotencyKeyOf } from "../middleware/idempotency-key.js";
import { readJsonBody } from "../middleware/json-body.js";
import type { RouteHandler, SeenBeforeRunning } from "../middleware/pipeline.js";
import { whenAnswerSent } from "../node-adapter.js";
import { jsonResponse, listResponse, resourceResponse } from "../respond.js";
import type { Operation } from "./define.js";
import { rememberedQueryParser } from "./query.js";
import { prepared, runOperation, seenWithoutRunning, type IncomingCall, type Outcome } from "./run.js";

/**
 * Registers each operation as a Hono route on `app`: its body read (only where it takes one, so
 * an unknown route or method is a 404/405 whatever its body), its Idempotency-Key checked, then
 * the steps every way in shares (run.ts), and the outcome sent. The body and the key are read in
 * the route's one handler rather than as middleware of their own: a request pays for no layer it
 * does not need. `pipelined` wraps each handler in what every /v1 request goes through (the key,
 * the fault rules, the log); an operation that takes a key gives it `seen` too, what a fault that
 * answers before the handler runs lets the log know of the call.
 */
export function mountOperations(
  app: Hono<AppEnv>,
  deps: AppDeps,
  operations: readonly Operation[],
  pipelined: (handler: RouteHandler, seen?: SeenBeforeRunning) => RouteHandler,
): void {
  for (const operation of operations) {
    const keyRequired = operation.idempotencyKey === "required";
    const parseQuery = operation.query ? rememberedQueryParser(operation.query) : () => undefined;

    const incoming = (c: Context<AppEnv>, rawBody: Record<string, unknown> | undefined): IncomingCall => ({
      deps,
      company: companyOf(c),
      requestId: requestIdOf(c),
      params: c.req.param() as Record<string, string>,
      rawBody,
      query: parseQuery(c),
      path: c.req.path,
      idempotencyKey: operation.idempotencyKey ? idempotencyKeyOf(c, keyRequired) : undefined,
    });

    const serve =
      "held" in operation
        ? (c: Context<AppEnv>, rawBody: Record<string, unknown> | undefined) => operation.act(prepared(operation, incoming(c, rawBody)), c)
        : (c: Context<AppEnv>, rawBody: Record<string, unknown> | undefined) => {
            const call = incoming(c, rawBody);
            // The log reads what the call's key and body were (the findings compare them): only a call with a key has them.
            if (operation.idempotencyKey) c.set("call", call);
            const outcome = runOperation(operation, call);
            return outcome instanceof Promise ? outcome.then((done) => send(c, done)) : send(c, outcome);
          };
    // Only an operation that takes a body waits for it; the others answer in the same turn.
    const answer = operation.body
      ? async (c: Context<AppEnv>) => serve(c, await readJsonBody(c, operation.credentials))
      : (c: Context<AppEnv>) => serve(c, undefined);
    // Kept from the moment the request arrives, before its body is read: a stop that comes while it is read still waits for the answer.
    const onStop = "onStop" in operation ? operation.onStop : undefined;
    const handler = onStop
      ? (c: Context<AppEnv>) => {
          answeredBeforeStop(c, deps, onStop);
          return answer(c);
        }
      : answer;

    // Asked only when a fault answers in the operation's place: its key and body, as the findings compare them.
    const seen =
      operation.idempotencyKey && !("held" in operation)
        ? async (c: Context<AppEnv>) => {
            const call = incoming(c, operation.body ? await readJsonBody(c) : undefined);
            seenWithoutRunning(operation, call);
            c.set("call", call);
          }
        : undefined;

    app.on(operation.method.toUpperCase(), [operation.path], pipelined(handler, seen));
  }
}

/** Keeps the request until paysim stops (held-requests.ts): `onStop` is called then, and the stop waits for its answer. */
function answeredBeforeStop(c: Context<AppEnv>, deps: AppDeps, onStop: (deps: AppDeps) => void): void {
  const answered = whenAnswerSent(c);
  const forget = deps.heldRequests.untilStop(() => onStop(deps), answered);
  void answered.then(forget);
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

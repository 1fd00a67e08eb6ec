import { parseOrThrow } from "../../domain/validation.js";
import type { IdempotentAnswer, IdempotentRequest } from "../../services/idempotency.js";
import type { Answer, Call, CallContext, Operation } from "./define.js";

/** A call as it reaches the steps every way in shares: the masked body as sent, the query as parsed. */
export interface IncomingCall extends CallContext {
  /** The JSON body as sent, already masked (undefined for an operation without a body). */
  rawBody: Record<string, unknown> | undefined;
  /** The query, already validated with the operation's schema (remembered.ts). */
  query: unknown;
  /** The path the call was made on (the idempotency layer keys by it). */
  path: string;
  idempotencyKey: string | undefined;
}

/** What an operation answered: one resource or list to send with this request's id, or the idempotency layer's text. */
export type Outcome = Exclude<Answer, { idempotent: Promise<IdempotentAnswer> }> | { answered: IdempotentAnswer };

/**
 * Runs `operation` for one call, whichever way it came in (an HTTP request, a dashboard form):
 * a change through the idempotency layer (a replay or a conflict is decided before anything
 * else), then the object it acts on found, then its body validated, then the call itself.
 */
export async function runOperation(operation: Exclude<Operation, { held: true }>, incoming: IncomingCall): Promise<Outcome> {
  const request: IdempotentRequest = {
    companyId: incoming.company.id,
    requestId: incoming.requestId,
    method: operation.method.toUpperCase(),
    path: incoming.path,
    body: incoming.rawBody ?? {},
    idempotencyKey: incoming.idempotencyKey,
  };
  if ("change" in operation) {
    const answered = await incoming.deps.runIdempotently(request, (work) => operation.change({ ...prepared(operation, incoming, request), work }));
    return { answered };
  }
  const answer = await operation.act(prepared(operation, incoming, request));
  return "idempotent" in answer ? { answered: await answer.idempotent } : answer;
}

/** The call's target found, then its body validated: an unknown id answers 404 whatever the body. */
export function prepared(operation: Operation, incoming: IncomingCall, request: IdempotentRequest): Call<unknown, unknown, unknown> {
  const context: CallContext = { deps: incoming.deps, company: incoming.company, requestId: incoming.requestId, params: incoming.params };
  const target = operation.target?.(context);
  const body = operation.body ? parseOrThrow(operation.body, incoming.rawBody ?? {}) : undefined;
  return { ...context, target, body, query: incoming.query, request };
}

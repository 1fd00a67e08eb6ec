import { parseOrThrow } from "../../domain/validation.js";
import { digested, type IdempotentAnswer, type IdempotentRequest } from "../../services/idempotency.js";
import type { Answer, Call, CallContext, Operation } from "./define.js";

/** A call as it reaches the steps every way in shares: the masked body as sent, the query as parsed. */
export interface IncomingCall extends CallContext {
  /** The JSON body as sent, already masked (undefined for an operation without a body). */
  rawBody: Record<string, unknown> | undefined;
  /** The query, already validated with the operation's schema (query.ts). */
  query: unknown;
  /** The path the call was made on (the idempotency layer keys by it). */
  path: string;
  idempotencyKey: string | undefined;
  /** The call as the idempotency layer saw it, once it did: its fingerprint is what the findings compare. */
  idempotent?: IdempotentRequest;
}

/** What an operation answered: one resource or list to send with this request's id, or the idempotency layer's text. */
export type Outcome = Exclude<Answer, { idempotent: Promise<IdempotentAnswer> }> | { answered: IdempotentAnswer };

/**
 * Runs `operation` for one call, whichever way it came in (an HTTP request, a dashboard form):
 * a change, or an action with a key, through the idempotency layer (a replay or a conflict is
 * decided before anything else), then the object it acts on found, then its body validated, then
 * the call itself. A read
 * or an action that answers at once is answered at once, without a promise: most reads are.
 */
export function runOperation(operation: Exclude<Operation, { held: true }>, incoming: IncomingCall): Outcome | Promise<Outcome> {
  if ("change" in operation) {
    const request = requestOf(operation, incoming);
    return incoming.deps
      .runIdempotently(request, (work) => operation.change(Object.assign(prepared(operation, incoming, request), { work })))
      .then((answered) => ({ answered }));
  }
  if (operation.idempotencyKey) {
    // An action with a key (an instance's start) answers through the idempotency layer: an earlier
    // answer under the key is replayed, or a 409 answered, before its body is validated, as for a change.
    const replay = incoming.deps.runIdempotently.replayOf(requestOf(operation, incoming));
    if (replay) return replay.then((answered) => ({ answered }));
  }
  const answer = operation.act(prepared(operation, incoming));
  return answer instanceof Promise ? answer.then(outcomeOf) : outcomeOf(answer);
}

function outcomeOf(answer: Answer): Outcome | Promise<Outcome> {
  return "idempotent" in answer ? answer.idempotent.then((answered) => ({ answered })) : answer;
}

/**
 * What the findings compare of a call that a fault answers before the operation runs (docs/faults.md):
 * its key's and body's digests, made as the idempotency layer makes them, with nothing looked up or run.
 */
export function seenWithoutRunning(operation: Operation, incoming: IncomingCall): void {
  digested(requestOf(operation, incoming));
}

/** The call as the idempotency layer sees it. */
function requestOf(operation: Operation, incoming: IncomingCall): IdempotentRequest {
  return (incoming.idempotent ??= {
    companyId: incoming.company.id,
    requestId: incoming.requestId,
    method: operation.method.toUpperCase(),
    path: incoming.path,
    body: incoming.rawBody ?? {},
    idempotencyKey: incoming.idempotencyKey,
  });
}

/** The call's target found, then its body validated: an unknown id answers 404 whatever the body. */
export function prepared(operation: Operation, incoming: IncomingCall, known?: IdempotentRequest): Call<unknown, unknown, unknown> {
  // One object of one shape, filled in the documented order: the target (404), then the body (400).
  const call: Call<unknown, unknown, unknown> = {
    deps: incoming.deps,
    company: incoming.company,
    requestId: incoming.requestId,
    params: incoming.params,
    target: undefined,
    body: undefined,
    query: incoming.query,
    // Only an operation with a key is seen by the idempotency layer: a read makes none of it.
    request: known ?? (operation.idempotencyKey ? requestOf(operation, incoming) : undefined),
  };
  if (operation.target) call.target = operation.target(call);
  if (operation.body) call.body = parseOrThrow(operation.body, incoming.rawBody ?? {});
  return call;
}

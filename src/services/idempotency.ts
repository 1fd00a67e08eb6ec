import { fingerprint } from "../shared/canonical-json.js";
import { ApiError } from "../domain/errors.js";
import { withRequestId } from "../shared/json-text.js";
import { sha256Hex } from "../shared/sha256.js";
import type { Clock } from "../runtime/clock.js";
import { MS } from "../domain/duration.js";
import type { Store } from "../store/index.js";
import type { IdempotencyScope } from "../store/repos/idempotency-keys.js";
import type { UnitOfWork, Work } from "./unit-of-work.js";

export const IDEMPOTENCY_WINDOW_MS = 24 * MS.hour;

/** A state-changing request, as the idempotency layer sees it. */
export interface IdempotentRequest {
  companyId: string;
  requestId: string;
  method: string;
  path: string;
  /** The Idempotency-Key header, already checked for shape; undefined when absent. */
  idempotencyKey: string | undefined;
  /** The masked request body. */
  body: unknown;
  /** The body's fingerprint (canonical JSON, hashed), once the layer has made it: the findings read it. */
  fingerprint?: string;
  /** The key's SHA-256, once the layer has made it: what is stored and what the findings compare, never the key. */
  keyDigest?: string;
}

/**
 * Makes `request`'s digests as the layer does (the key's SHA-256, the body's fingerprint; none
 * without a key) without looking anything up: what the findings compare of a call, also for one
 * a fault answered before the layer saw it.
 */
export function digested(request: IdempotentRequest): IdempotentRequest {
  if (request.idempotencyKey !== undefined) {
    request.keyDigest ??= sha256Hex(request.idempotencyKey);
    request.fingerprint ??= fingerprint(request.body);
  }
  return request;
}

/** What a change answers: its status and resource. */
export interface ChangeResult<Resource extends object = object> {
  status: number;
  /** The resource to answer with; `request_id` is added here. */
  resource: Resource;
  /** An event answers with its own `request_id` (the request that caused it), not this one's. */
  keepsRequestId?: boolean;
}

/** Names the type an answer's text holds: a type only, never a value. */
declare const holds: unique symbol;

/** The answer to send: a change's stored text, or the replay of an earlier one; `Resource` is what its text holds. */
export interface IdempotentAnswer<Resource = unknown> {
  status: number;
  /** The exact JSON text to send. */
  text: string;
  replayed: boolean;
  /** Never set: the type of the resource `text` holds, for the types of the callers (an answer of one resource is not passed off as another's). */
  readonly [holds]?: Resource;
}

/**
 * The idempotency layer of state-changing calls: with an Idempotency-Key, the
 * lookup, the change, its events and the stored answer run in one synchronous
 * step and commit together, so concurrent requests with one key make exactly
 * one object (docs/api.md); a repeat within the window replays the stored answer.
 */
export function createIdempotentRunner(store: Store, clock: Clock, unitOfWork: UnitOfWork) {
  /** The stored answer to replay for `scope`, if it was stored within the window; 409 for another body. */
  function storedAnswer(scope: IdempotencyScope, print: string, now: number): IdempotentAnswer | undefined {
    const stored = store.idempotencyKeys.find(scope);
    if (!stored || now - stored.created_ms >= IDEMPOTENCY_WINDOW_MS) return undefined;
    if (stored.fingerprint !== print) {
      throw new ApiError(
        "idempotency_conflict",
        "This Idempotency-Key was already used with a different request body. Use a new key for a new operation.",
        "Idempotency-Key",
      );
    }
    return { status: stored.status, text: stored.body, replayed: true };
  }

  /**
   * Where `request`'s answer is kept, and the earlier answer to replay (undefined: none; 409 for
   * another body). That answer holds a `Resource` too: a key's answer is kept under its method
   * and path, so the operation that stored it is the one asking.
   */
  function lookup<Resource>(request: IdempotentRequest) {
    // A key is the client's free text and may hold anything, even a card number: only its
    // hash is stored (docs/guarantees.md). Masking it instead would merge keys that differ in masked digits.
    const { keyDigest, fingerprint: print = "" } = digested(request);
    const scope = keyDigest === undefined ? undefined : { company_id: request.companyId, method: request.method, path: request.path, key: keyDigest };
    const now = clock.now();
    const stored = scope && storedAnswer(scope, print, now);
    // A replay writes nothing, so it takes no unit of the group commit. It is answered only
    // once the group that may hold its stored answer is durable.
    const replay = stored && (store.whenOpenGroupDurable() ?? Promise.resolve()).then(() => stored as IdempotentAnswer<Resource>);
    return { scope, print, now, replay };
  }

  function runIdempotently<Resource extends object>(
    request: IdempotentRequest,
    change: (work: Work) => ChangeResult<Resource>,
  ): Promise<IdempotentAnswer<Resource>> {
    // Nothing can run between this lookup and the unit below (one thread, one connection).
    const { scope, print, now, replay } = lookup<Resource>(request);
    if (replay) return replay;
    return unitOfWork.grouped(request.requestId, (work) => {
      const result = change(work);
      const text = result.keepsRequestId ? JSON.stringify(result.resource) : withRequestId(result.resource, request.requestId);
      if (scope && result.status >= 200 && result.status < 300) {
        store.idempotencyKeys.save({ ...scope, fingerprint: print, status: result.status, body: text, created_ms: now });
      }
      return { status: result.status, text, replayed: false };
    });
  }

  /**
   * As runIdempotently, for a change that needs asynchronous work first (starting an instance):
   * a replay (or a 409) is answered without `prepare`; otherwise `prepare` runs, then `change`
   * stores the answer. When a request with the same key stored its answer meanwhile, that answer
   * is replayed and `discard` undoes what `prepare` made, as it does when the change fails.
   */
  async function prepared<T, Resource extends object>(
    request: IdempotentRequest,
    prepare: () => Promise<T>,
    change: (work: Work, made: T) => ChangeResult<Resource>,
    discard: (made: T) => Promise<void>,
  ): Promise<IdempotentAnswer<Resource>> {
    const { replay } = lookup<Resource>(request);
    if (replay) return replay;
    const made = await prepare();
    let answer: IdempotentAnswer<Resource>;
    try {
      answer = await runIdempotently(request, (work) => change(work, made));
    } catch (error) {
      await discard(made);
      throw error;
    }
    if (answer.replayed) await discard(made);
    return answer;
  }

  /**
   * The earlier answer to replay for `request`'s key, if there is one (a 409 thrown for another
   * body): for a call that must know it before anything else, as a change's unit does (an
   * instance's start validates its body only once the key is known to be new).
   */
  function replayOf(request: IdempotentRequest): Promise<IdempotentAnswer> | undefined {
    return lookup(request).replay;
  }

  return Object.assign(runIdempotently, { prepared, replayOf });
}

export type RunIdempotently = ReturnType<typeof createIdempotentRunner>;

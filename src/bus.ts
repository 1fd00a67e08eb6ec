import { EventEmitter } from "node:events";
import type { ChaosMark } from "./domain/chaos.js";
import type { FaultKind } from "./domain/faults.js";
import type { Machine, ResetCounts } from "./domain/resources.js";

/**
 * The bus's contract: plain facts that it owns, copied out of the store's rows when they are
 * announced. The live view, the log lines and the test helpers read only these, so a change of a
 * table never reaches them.
 */

/** The fault rule (docs/faults.md) that hit a request. */
export interface RequestFault {
  ruleId: string;
  fault: FaultKind;
  /** The client got no answer at all (`lost_response`, `timeout`, a `latency` cut short): its connection was closed. */
  unanswered: boolean;
}

/**
 * A fault rule hit a request (docs/faults.md), announced when it hits, before the request is held
 * or answered: what a `timeout` or `latency` does takes real time, and the run may end first.
 */
export interface RequestFaulted {
  requestId: string;
  /** As `request.logged` gives it: card numbers masked. */
  path: string;
  companyId: string;
  /** The route that matched, as mounted ("POST /v1/payouts/:id/cancel"). */
  route?: string;
  fault: FaultKind;
}

/** A request paysim began to handle: the live view prints the events it makes after its line. */
export interface RequestStarted {
  requestId: string;
}

/** A finished API request, as the log and the live view show it. */
export interface RequestLogged {
  requestId: string;
  method: string;
  path: string;
  /**
   * The status answered. For a request a fault left unanswered: the status paysim made and
   * withheld (`lost_response`), or 0 when it made none (`timeout`).
   */
  status: number;
  durationMs: number;
  /** Present when a fault rule hit the request. */
  fault?: RequestFault;
  /** Set when the client got no answer: a fault closed its connection, or the client went away first. */
  unanswered?: true;
  /** The company of the request's key, once the key guard knew it. */
  companyId?: string;
  /** The route that matched, as mounted ("POST /v1/payouts/:id/cancel"); absent when none did. */
  route?: string;
  /** The error code answered, for an error answer paysim made. */
  errorCode?: string;
  /** When it arrived, in real milliseconds of the instance's timers (`Timers.now()`): what the findings time a client by. */
  arrivedAtMs: number;
  /** The SHA-256 of the Idempotency-Key it carried (never the key: it may hold anything), for a call the idempotency layer saw. */
  idempotencyKeyDigest?: string;
  /** Its body's fingerprint, for a call with a key that the idempotency layer saw. */
  bodyFingerprint?: string;
  /** Its body as read, card numbers masked (the same object, not a copy), for a call of an operation that takes a key: the findings digest it only when a rule needs to. */
  body?: Readonly<Record<string, unknown>>;
  /** The object a read by id named (its `:id`). */
  objectId?: string;
  /** The Retry-After of a 429, in seconds. */
  retryAfterSeconds?: number;
}

/** A delivery the outbox made for an event: an attempt will report on it. */
export interface DeliveryExpected {
  deliveryId: string;
  endpointId: string;
  url: string;
}

/** An event, once its transaction has committed, with the deliveries made for it then. */
export interface EventCreated {
  id: string;
  type: string;
  objectId: string | null;
  companyId: string;
  requestId: string;
  createdAt: string;
  deliveries: readonly DeliveryExpected[];
}

/** How one attempt ended: an HTTP status, or no answer and why. */
export interface AttemptResult {
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  /** Which webhook chaos made this attempt (docs/webhooks.md): "duplicate", "reordered", "delayed"; null (or absent) for a normal one. */
  chaos?: ChaosMark | null;
}

export type DeliveryStatus = "pending" | "succeeded" | "failed";

/** A delivery after one of its attempts ended: still pending (a retry is due), succeeded, or given up. */
export interface DeliveryAttempted {
  deliveryId: string;
  eventId: string;
  eventType: string;
  /** The request that caused the event (the event's own `request_id`). */
  eventRequestId: string;
  endpointId: string;
  url: string;
  status: DeliveryStatus;
  companyId: string;
  /** Attempts made so far, this one included. */
  attempts: number;
  /** Clock time (ms) of the next attempt; null once finished. */
  nextAttemptMs: number | null;
  attempt: AttemptResult;
}

/** Deliveries that stopped without an attempt's say: their endpoint was deleted. */
export interface DeliveriesStopped {
  endpointId: string;
  reason: "endpoint_deleted";
  deliveryIds: readonly string[];
}

/** A move of one of the state machines (docs/api.md): made once committed, or refused as asked. */
export interface StateMoved {
  companyId: string;
  machine: Machine;
  from: string;
  to: string;
  refused: boolean;
}

/** A sandbox reset committed (docs/testing.md): one company's activity deleted, or every company's (companyId null). */
export interface SandboxReset {
  companyId: string | null;
  deleted: ResetCounts;
}

export interface BusEvents {
  "request.started": [RequestStarted];
  "request.logged": [RequestLogged];
  "request.faulted": [RequestFaulted];
  "event.created": [EventCreated];
  "delivery.attempted": [DeliveryAttempted];
  "deliveries.stopped": [DeliveriesStopped];
  "sandbox.reset": [SandboxReset];
  "state.moved": [StateMoved];
}

/**
 * The typed in-process bus: the writers announce, once committed; the log lines, the live view and
 * the test helpers listen. Nothing in the process reads its own HTTP API.
 */
export class Bus extends EventEmitter<BusEvents> {}

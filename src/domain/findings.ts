/**
 * Findings: the integration mistakes a passing suite hides, which production punishes (a second
 * charge after a lost answer, a client looping on a 4xx, a receiver that rejects every real
 * event). The rules watch what paysim served and delivered, as plain observations; what they keep
 * to decide is bounded and per company, and forgotten at a reset (a reset is a test's boundary),
 * while the findings raised stay until cleared.
 *
 * Pure logic: times come in with each observation (paysim's clock for what the service would
 * measure in its own time, real time for what a client or a receiver takes), nothing is read from
 * a clock here.
 */
import { fingerprint } from "../shared/canonical-json.js";
import { MACHINES, RESOURCES } from "./resources.js";

/** How much a finding matters: an "error" (a second payment or payout in production) or a "warning". */
export type FindingSeverity = "error" | "warning";

/** One rule of the catalogue: what it is called and what to do about it. */
export interface FindingRule {
  readonly code: FindingCode;
  readonly severity: FindingSeverity;
  readonly title: string;
  readonly advice: string;
}

/** An example of a finding: the request that raised it (for a webhook rule, the request that caused the event delivered). */
export interface FindingExample {
  /** The request that raised it; for the webhook rules, which watch deliveries, the event's own `request_id`. */
  request_id: string | null;
  /** The object concerned (a payment intent, a payout; for a webhook rule, the delivery), when there is one. */
  object_id?: string;
  detail: string;
}

/** A finding as reports show it. */
export interface Finding extends FindingRule {
  count: number;
  first_seen_at: string;
  examples: FindingExample[];
}

export const FINDING_CODES = [
  "new_key_on_retry",
  "retry_after_ignored",
  "retried_client_error",
  "polling_instead_of_webhooks",
  "slow_webhook_receiver",
  "valid_webhook_rejected",
] as const;
/** One of the six findings' codes: "new_key_on_retry", "retry_after_ignored", "retried_client_error", "polling_instead_of_webhooks", "slow_webhook_receiver" or "valid_webhook_rejected". */
export type FindingCode = (typeof FINDING_CODES)[number];

/** The catalogue, in the order reports list the rules. */
export const FINDING_RULES: Readonly<Record<FindingCode, FindingRule>> = {
  new_key_on_retry: {
    code: "new_key_on_retry",
    severity: "error",
    title: "A creation that got no answer or a 5xx was retried under a new Idempotency-Key",
    advice:
      "Keep the Idempotency-Key of a creation until it has an answer, and retry with the same key: in production the first request may have succeeded, and a new key makes a second payment or payout.",
  },
  retry_after_ignored: {
    code: "retry_after_ignored",
    severity: "warning",
    title: "A rate-limited request was sent again before its 429's Retry-After had passed",
    advice: "Wait at least Retry-After seconds after a 429 before sending the request again: production throttles or blocks a client that does not.",
  },
  retried_client_error: {
    code: "retried_client_error",
    severity: "warning",
    title: "The same request got the same 4xx three or more times in a row",
    advice: "A 4xx does not heal by retrying: fix the request (its error names the field) instead of sending it again.",
  },
  polling_instead_of_webhooks: {
    code: "polling_instead_of_webhooks",
    severity: "warning",
    title: "One object was read 20 or more times within 10 seconds while a webhook endpoint was listening",
    advice:
      "React to the webhook instead of polling: polling storms hit production's rate limits. In tests, wait for the event (events.waitFor or GET /v1/sandbox/events/wait).",
  },
  slow_webhook_receiver: {
    code: "slow_webhook_receiver",
    severity: "warning",
    title: "A webhook receiver took longer than 5 seconds to answer",
    advice: "Answer a delivery at once (2xx) and do the work afterwards: production times out slow receivers and retries, which makes duplicates.",
  },
  valid_webhook_rejected: {
    code: "valid_webhook_rejected",
    severity: "warning",
    title: "A receiver answered 400, 401 or 403 to a correctly signed, fresh first delivery",
    advice:
      "Check the receiver's signature verification: sign the raw body as received (not re-serialised JSON) with the endpoint's whole signing secret. As it is, every production event would be lost.",
  },
};

/**
 * The creations a lost answer makes dangerous to repeat under a new key, as routes are mounted:
 * the creation of every resource with a state machine (a payment intent, a payout), whose
 * duplicate is a second object that goes on to move money. Derived from the resource registry,
 * so a new resource with a machine is watched without being listed here.
 */
export const RETRY_SENSITIVE_CREATIONS: ReadonlySet<string> = new Set(MACHINES.map((machine) => `POST /v1/${RESOURCES[machine].collection}`));

/** The rules' thresholds, as docs/testing.md states them. */
export const FINDING_LIMITS = {
  /** new_key_on_retry: how long (paysim's clock) a failed creation is remembered. */
  newKeyWindowMs: 10 * 60 * 1000,
  /** retried_client_error: the streak that raises it. */
  clientErrorStreak: 3,
  /** polling_instead_of_webhooks: reads of one object, within this much real time. */
  pollingReads: 20,
  pollingWindowMs: 10_000,
  /** slow_webhook_receiver: an answer slower than this (real time). */
  slowReceiverMs: 5_000,
  /** Examples kept per finding. */
  examples: 5,
  /** Entries each rule keeps per company to decide (bodies, request signatures, objects read): the oldest go first. */
  tracked: 1_000,
} as const;

/** A request paysim answered (or left unanswered), as the rules see it. */
export interface ObservedRequest {
  requestId: string;
  method: string;
  /** The route that matched, as mounted ("POST /v1/payouts/:id/cancel"). */
  route: string;
  path: string;
  /** The status the client got; "none" when it got no answer (a lost response, a timeout, a latency whose client left). */
  status: number | "none";
  /** Real time (ms) the request arrived and was answered. */
  arrivedAtMs: number;
  answeredAtMs: number;
  /** paysim's clock (ms) when it arrived. */
  clockMs: number;
  idempotencyKey?: string;
  /** A digest of the body's canonical JSON, when it was already made (the idempotency layer makes it for a call with a key). */
  bodyDigest?: string;
  /** The body as sent (masked), for a call whose body was read: its digest is made from it only when a rule needs it. */
  body?: unknown;
  /** The object the request created or read, when it names or made one. */
  objectId?: string;
  /** The Retry-After of a 429, in seconds. */
  retryAfterSeconds?: number;
}

/** One attempt to deliver a webhook, as the rules see it. */
export interface ObservedAttempt {
  deliveryId: string;
  eventType: string;
  url: string;
  /** Which attempt of its delivery this was: 1 for the first. */
  attempt: number;
  /** The receiver's status; null when it gave none (a timeout, a refused connection). */
  status: number | null;
  /** Real time (ms) from sending to the answer, or to giving up on one. */
  durationMs: number;
  /** Whether chaos altered the delivery (a duplicate, a reordering, a delay). */
  chaosAltered: boolean;
  /** The request that caused the event delivered (the event's own `request_id`). */
  eventRequestId: string;
}

/** When something was seen, as paysim's clock shows it: the text, or how to get it. */
type At = string | (() => string);

interface Raised {
  count: number;
  firstSeenAt: string;
  examples: FindingExample[];
}

/** What a rule remembered of a creation that got no answer or a 5xx. */
interface FailedCreation {
  requestId: string;
  idempotencyKey: string | undefined;
  clockMs: number;
  outcome: string;
}

/** A map that keeps at most `limit` entries, forgetting the oldest set first. */
class BoundedMap<K, V> extends Map<K, V> {
  /** `onForgotten` hears each entry forgotten to stay within the limit. */
  constructor(
    private readonly limit: number,
    private readonly onForgotten?: (value: V) => void,
  ) {
    super();
  }
  override set(key: K, value: V): this {
    this.delete(key);
    super.set(key, value);
    if (this.size > this.limit) {
      const oldest = this.keys().next().value as K;
      const forgotten = this.get(oldest) as V;
      this.delete(oldest);
      this.onForgotten?.(forgotten);
    }
    return this;
  }
}

/** A 4xx streak of one request (sameRequest and body): its status, its length, and the path it was sent to. */
interface Streak {
  status: number;
  streak: number;
  path: string;
}

/** An answer that leaves the client unable to know whether the request was done: none at all, or a 5xx. A 429 is not one: nothing was done. */
const isIndeterminate = (status: number | "none") => status === "none" || (status >= 500 && status <= 599);

/** The request's body digest, made the first time a rule asks; undefined for a request without a body. */
function bodyDigestOf(request: ObservedRequest): string | undefined {
  if (request.bodyDigest === undefined && request.body !== undefined) request.bodyDigest = fingerprint(request.body);
  return request.bodyDigest;
}

/**
 * What makes two requests the same request sent again: method and path, then the
 * Idempotency-Key, or for a request without one its body.
 */
const sameRequest = (request: ObservedRequest) =>
  request.idempotencyKey === undefined
    ? `${request.method} ${request.path} body ${bodyDigestOf(request) ?? ""}`
    : `${request.method} ${request.path} key ${request.idempotencyKey}`;
const outcomeOf = (status: number | "none") => (status === "none" ? "got no answer" : `got ${status}`);

/** The findings of one company: fed observations, it answers what they raised. */
export class FindingsTracker {
  /** `hasWebhookEndpoint` says whether the company has one now: asked only when reads reach the polling threshold. */
  constructor(private readonly hasWebhookEndpoint: () => boolean = () => false) {}

  private raised = new Map<FindingCode, Raised>();
  // What the rules keep to decide; forgotten at a reset.
  private failedCreations = new BoundedMap<string, FailedCreation>(FINDING_LIMITS.tracked);
  /** By the rate-limited request (sameRequest): when its Retry-After passes. */
  private retryAfter = new BoundedMap<string, { from: number; until: number; requestId: string }>(FINDING_LIMITS.tracked);
  /** When the last of the Retry-After windows kept passes: once it has, they are all forgotten. */
  private retryAfterUntil = 0;
  private clientErrors = new BoundedMap<string, Streak>(FINDING_LIMITS.tracked, (forgotten) => this.streakEnded(forgotten.path));
  /** How many open streaks each path has: a request to a path with none ends no streak, and makes no signature. */
  private streakPaths = new Map<string, number>();
  private reads = new BoundedMap<string, number[]>(FINDING_LIMITS.tracked);

  /** `at` is paysim's clock as ISO text, for `first_seen_at` (a function: asked only when a rule raises). */
  request(request: ObservedRequest, at: At): void {
    this.checkNewKeyOnRetry(request, at);
    this.checkRetryAfter(request, at);
    this.checkClientErrorLoop(request, at);
    this.checkPolling(request, at);
  }

  attempt(attempt: ObservedAttempt, at: At): void {
    if (attempt.durationMs > FINDING_LIMITS.slowReceiverMs) {
      const took =
        attempt.status === null ? `gave no answer in ${seconds(attempt.durationMs)}` : `answered ${attempt.status} after ${seconds(attempt.durationMs)}`;
      this.raise("slow_webhook_receiver", at, {
        request_id: attempt.eventRequestId,
        object_id: attempt.deliveryId,
        detail: `${attempt.eventType} to ${attempt.url}: ${took}`,
      });
    }
    if (attempt.attempt === 1 && !attempt.chaosAltered && (attempt.status === 400 || attempt.status === 401 || attempt.status === 403)) {
      this.raise("valid_webhook_rejected", at, {
        request_id: attempt.eventRequestId,
        object_id: attempt.deliveryId,
        detail: `${attempt.eventType} to ${attempt.url}: answered ${attempt.status} to its first, correctly signed attempt`,
      });
    }
  }

  /** A reset: a test's boundary. What the rules kept to decide is forgotten; the findings stay. */
  reset(): void {
    this.failedCreations.clear();
    this.retryAfter.clear();
    this.clientErrors.clear();
    this.streakPaths.clear();
    this.reads.clear();
  }

  /** Forgets everything: the findings and what the rules kept. */
  clear(): void {
    this.reset();
    this.raised.clear();
  }

  /** The findings raised, errors first, then in the catalogue's order. */
  findings(): Finding[] {
    return sortedFindings(
      [...this.raised].map(([code, raised]) => ({
        ...FINDING_RULES[code],
        count: raised.count,
        first_seen_at: raised.firstSeenAt,
        examples: [...raised.examples],
      })),
    );
  }

  private raise(code: FindingCode, at: At, example: FindingExample): void {
    const raised = this.raised.get(code);
    if (!raised) {
      this.raised.set(code, { count: 1, firstSeenAt: typeof at === "function" ? at() : at, examples: [example] });
      return;
    }
    raised.count += 1;
    if (raised.examples.length < FINDING_LIMITS.examples) raised.examples.push(example);
  }

  private checkNewKeyOnRetry(request: ObservedRequest, at: At): void {
    if (!RETRY_SENSITIVE_CREATIONS.has(request.route)) return;
    const digest = bodyDigestOf(request);
    if (digest === undefined) return;
    const body = `${request.route} ${digest}`;
    const earlier = this.failedCreations.get(body);
    if (earlier && earlier.idempotencyKey !== request.idempotencyKey && request.clockMs - earlier.clockMs <= FINDING_LIMITS.newKeyWindowMs) {
      this.raise("new_key_on_retry", at, {
        request_id: request.requestId,
        ...(request.objectId === undefined ? {} : { object_id: request.objectId }),
        detail: `${request.route} repeated ${request.requestId} under a new Idempotency-Key; the same body was sent as ${earlier.requestId}, which ${earlier.outcome}`,
      });
    }
    if (isIndeterminate(request.status)) {
      this.failedCreations.set(body, {
        requestId: request.requestId,
        idempotencyKey: request.idempotencyKey,
        clockMs: request.clockMs,
        outcome: outcomeOf(request.status),
      });
    } else {
      this.failedCreations.delete(body);
    }
  }

  /**
   * Only a retry of the rate-limited request itself counts: the same request (sameRequest) sent
   * after its 429 was answered and before its Retry-After passed. Other requests of the client,
   * those in flight when the 429 was answered included, are no retry of it.
   */
  private checkRetryAfter(request: ObservedRequest, at: At): void {
    const limited = request.status === 429 && request.retryAfterSeconds !== undefined;
    // Most requests come while no 429 waits: no signature is made for them.
    if (!limited) {
      if (this.retryAfter.size === 0) return;
      if (request.arrivedAtMs >= this.retryAfterUntil) {
        this.retryAfter.clear();
        return;
      }
    }
    const signature = sameRequest(request);
    const window = this.retryAfter.get(signature);
    if (window && request.arrivedAtMs >= window.until) this.retryAfter.delete(signature);
    else if (window && request.arrivedAtMs >= window.from) {
      this.raise("retry_after_ignored", at, {
        request_id: request.requestId,
        detail: `${request.method} ${request.path} sent again ${seconds(window.until - request.arrivedAtMs)} before the Retry-After of ${window.requestId} had passed`,
      });
    }
    if (limited) {
      const until = request.answeredAtMs + request.retryAfterSeconds! * 1000;
      this.retryAfter.set(signature, { from: request.answeredAtMs, until, requestId: request.requestId });
      if (until > this.retryAfterUntil) this.retryAfterUntil = until;
    }
  }

  private checkClientErrorLoop(request: ObservedRequest, at: At): void {
    const { status } = request;
    // 408 (a wait that timed out) and 429 (its own rule) invite a retry.
    const clientError = status !== "none" && status >= 400 && status <= 499 && status !== 408 && status !== 429;
    // Most requests end no streak: the signature (and a keyless body's digest) is only made when one may be open on their path.
    if (!clientError && (this.clientErrors.size === 0 || !this.streakPaths.has(request.path))) return;
    const signature = `${request.method} ${request.path} ${bodyDigestOf(request) ?? ""} ${request.idempotencyKey ?? ""}`;
    const earlier = this.clientErrors.get(signature);
    if (!clientError) {
      if (earlier && this.clientErrors.delete(signature)) this.streakEnded(earlier.path);
      return;
    }
    const streak = earlier?.status === status ? earlier.streak + 1 : 1;
    if (!earlier) this.streakPaths.set(request.path, (this.streakPaths.get(request.path) ?? 0) + 1);
    this.clientErrors.set(signature, { status, streak, path: request.path });
    if (streak === FINDING_LIMITS.clientErrorStreak) {
      this.raise("retried_client_error", at, {
        request_id: request.requestId,
        detail: `${request.method} ${request.path} got ${status} ${streak} times in a row`,
      });
    }
  }

  private streakEnded(path: string): void {
    const open = (this.streakPaths.get(path) ?? 0) - 1;
    if (open > 0) this.streakPaths.set(path, open);
    else this.streakPaths.delete(path);
  }

  private checkPolling(request: ObservedRequest, at: At): void {
    if (request.method !== "GET" || request.objectId === undefined || !request.route.endsWith("/:id")) return;
    let times = this.reads.get(request.objectId);
    // Kept by reference: a read of an object already tracked only appends to its window.
    if (!times) this.reads.set(request.objectId, (times = []));
    times.push(request.arrivedAtMs);
    // The window holds the last `pollingReads` reads at most, those within `pollingWindowMs`.
    if (times.length > FINDING_LIMITS.pollingReads) times.shift();
    while (request.arrivedAtMs - times[0]! > FINDING_LIMITS.pollingWindowMs) times.shift();
    if (times.length < FINDING_LIMITS.pollingReads) return;
    const first = times[0]!;
    // A new window either way: the endpoint is asked once per full window, not on every read.
    this.reads.delete(request.objectId);
    if (!this.hasWebhookEndpoint()) return;
    this.raise("polling_instead_of_webhooks", at, {
      request_id: request.requestId,
      object_id: request.objectId,
      detail: `${request.objectId} read ${FINDING_LIMITS.pollingReads} times in ${seconds(request.arrivedAtMs - first)} while a webhook endpoint was listening`,
    });
  }
}

/** Findings of several trackers as one list (a parent's own and its instances'): counts added, the earliest first seen, examples up to the limit. */
export function mergeFindings(lists: readonly (readonly Finding[])[]): Finding[] {
  const merged = new Map<FindingCode, Finding>();
  for (const list of lists) {
    for (const finding of list) {
      const known = merged.get(finding.code);
      if (!known) {
        merged.set(finding.code, { ...finding, examples: finding.examples.slice(0, FINDING_LIMITS.examples) });
        continue;
      }
      known.count += finding.count;
      if (finding.first_seen_at < known.first_seen_at) known.first_seen_at = finding.first_seen_at;
      known.examples = [...known.examples, ...finding.examples].slice(0, FINDING_LIMITS.examples);
    }
  }
  return sortedFindings([...merged.values()]);
}

const SEVERITY_ORDER: Record<FindingSeverity, number> = { error: 0, warning: 1 };

function sortedFindings(findings: Finding[]): Finding[] {
  return findings.sort((a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] || FINDING_CODES.indexOf(a.code) - FINDING_CODES.indexOf(b.code));
}

/** How many findings (distinct codes) of each severity; each finding's `count` says how often it was raised. */
export function findingCounts(findings: readonly Finding[]): Record<FindingSeverity, number> {
  const counts: Record<FindingSeverity, number> = { error: 0, warning: 0 };
  for (const finding of findings) counts[finding.severity] += 1;
  return counts;
}

/** How many times the findings were raised, all together. */
export function findingOccurrences(findings: readonly Finding[]): number {
  let occurrences = 0;
  for (const finding of findings) occurrences += finding.count;
  return occurrences;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

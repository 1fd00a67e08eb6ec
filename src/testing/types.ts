/**
 * The public shapes of the test helpers (docs/testing.md). Public API: nothing here may need a
 * devDependency's types, so the delivery is spelled out rather than taken from the store's view.
 */

/** An event exactly as `GET /v1/events/:id` shows it, without `deliveries`. */
export interface PaysimEvent {
  id: string;
  object: "event";
  /** e.g. "payment_intent.captured". */
  type: string;
  created_at: string;
  /** The request that caused it. */
  request_id: string;
  /** A masked snapshot of the resource at that moment. */
  data: Record<string, unknown>;
}

/** One attempt of a delivery, as `GET /v1/events/:id` shows it. */
export interface PaysimDeliveryAttempt {
  attempted_at: string;
  /** null when no answer came (network error, timeout): `error` says why. */
  status_code: number | null;
  error: string | null;
  duration_ms: number | null;
  /** The first KiB of the receiver's answer, masked; null without an answer. */
  response_body: string | null;
  /** Which webhook chaos made this attempt, or null for a normal one. */
  chaos: "duplicate" | "reordered" | "delayed" | null;
}

/** One delivery of an event to one endpoint, as `GET /v1/events/:id` shows it. */
export interface PaysimDelivery {
  id: string;
  endpoint_id: string;
  url: string;
  status: string;
  /** null once finished. */
  next_attempt_at: string | null;
  attempts: PaysimDeliveryAttempt[];
}

/** Which events: every field given must match. */
export interface EventFilter {
  /** An event type, or a list of them (any one matches). */
  type?: string | readonly string[];
  /** The id of the object the event is about, e.g. "pi_…" or "po_…". */
  objectId?: string;
}

/** Which deliveries: every field given must match. */
export interface WebhookFilter extends EventFilter {
  /** The endpoint URL, exactly as registered. */
  url?: string;
  /**
   * "succeeded" (default): a 2xx was recorded; "failed": given up (after the last attempt, or
   * its endpoint deleted); "attempted": any attempt has ended, whatever its outcome.
   */
  status?: "succeeded" | "failed" | "attempted";
  /**
   * The delivery's attempt numbered this (1 = the first, 2 = the first retry, … 7) has ended,
   * whatever it got: a retry can be waited for. A chaos duplicate is not counted. With `attempt`
   * or `chaos` and no `status`, the delivery's status is not looked at.
   */
  attempt?: number;
  /** An attempt marked by webhook chaos has ended: "duplicate", "reordered" or "delayed". */
  chaos?: "duplicate" | "reordered" | "delayed";
  /**
   * true: only a delivery that a resend made (`POST /v1/events/:id/resend`, `paysim events
   * resend`, the dashboard's Resend); false: only those the event got when it happened.
   */
  resent?: boolean;
}

/** How long a wait may take. */
export interface WaitOptions {
  /** Real milliseconds (not moved by `clock.advance`); default 5000. */
  timeout?: number;
}

/** What `webhooks.waitFor` resolves with. */
export interface DeliveredWebhook {
  event: PaysimEvent;
  delivery: PaysimDelivery;
}

/** The events of a running paysim. */
export interface PaysimEvents {
  /**
   * Every event since the instance started (or since the last reset), oldest first, each as
   * `GET /v1/events/:id` shows it without `deliveries`; only those matching `filter` if given.
   */
  list(filter?: EventFilter): Promise<PaysimEvent[]>;
  /**
   * The first event matching `filter`, whether it happened before the call or after. Rejects with
   * PaysimTimeoutError after `timeout` real milliseconds (default 5000), naming what did happen.
   */
  waitFor(filter: EventFilter, options?: WaitOptions): Promise<PaysimEvent>;
}

/** The webhook deliveries of a running paysim. */
export interface PaysimWebhooks {
  /**
   * The first delivery matching `filter` (`status` "succeeded" unless told), whether it happened
   * before the call or after. Rejects with PaysimTimeoutError after `timeout` real milliseconds
   * (default 5000), listing the last deliveries, and first saying so when no webhook endpoint
   * could make a matching delivery (none at all, none at `url`, none listening to `type`).
   */
  waitFor(filter: WebhookFilter, options?: WaitOptions): Promise<DeliveredWebhook>;
}

/** A fault that a rule makes paysim commit on purpose (docs/faults.md). */
export type PaysimFaultKind = "server_error" | "rate_limited" | "lost_response" | "timeout" | "latency";

/** A new fault rule: the body of `POST /v1/sandbox/faults`. */
export interface PaysimFaultRuleInput {
  /**
   * `server_error` (500, nothing done), `rate_limited` (429 with Retry-After: `retry_after_seconds`, nothing done),
   * `lost_response` (the request is done and committed, then the connection closes with no answer),
   * `timeout` (no answer for `latency_ms`, then the connection closes; nothing done), `latency` (the
   * normal answer, `latency_ms` late).
   */
  fault: PaysimFaultKind;
  /** Which requests: absent, every /v1 request of the company (never /v1/sandbox/…, /health, checkout, dashboard). */
  match?: {
    /** "GET", "POST", "DELETE"…; absent: any. */
    method?: "GET" | "HEAD" | "POST" | "PUT" | "PATCH" | "DELETE";
    /** A /v1/… path where `*` stands for one segment, e.g. "/v1/payment_intents/*\/capture"; absent: any. */
    path?: string;
  };
  /** How many matching requests it hits (1–10,000, default 1); the rule is gone once used up. */
  times?: number;
  /** The chance a matching request is hit (0–1, default 1), drawn from `seed`. */
  probability?: number;
  /** The wait of `latency` (required) and `timeout` (default 30,000), 1–60,000 real milliseconds. */
  latency_ms?: number;
  /** `rate_limited` only: the seconds its 429's Retry-After says, 0–3600 (default 1). */
  retry_after_seconds?: number;
  /** An integer (default 0): the same seed hits the same matching requests in every run. */
  seed?: number;
}

/** A fault rule as `GET /v1/sandbox/faults` shows it. */
export interface PaysimFaultRule {
  id: string;
  object: "fault";
  fault: PaysimFaultKind;
  match: { method: string | null; path: string | null };
  times: number;
  /** Hits left. */
  remaining: number;
  probability: number;
  latency_ms: number | null;
  /** A `rate_limited` rule's Retry-After seconds; null for the other faults. */
  retry_after_seconds: number | null;
  created_at: string;
}

/** The fault rules of a running paysim's default company (docs/faults.md). */
export interface PaysimFaults {
  /**
   * Adds a rule and resolves to it. Rejects with an Error naming the field for a rule the API
   * would refuse (400), storing nothing.
   */
  add(rule: PaysimFaultRuleInput): Promise<PaysimFaultRule>;
  /** Removes every rule of the default company. */
  clear(): Promise<void>;
}

/**
 * The public shapes of the test helpers (SPEC §12.1). Public API: nothing here may need a
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
   * (default 5000), listing the last deliveries.
   */
  waitFor(filter: WebhookFilter, options?: WaitOptions): Promise<DeliveredWebhook>;
}

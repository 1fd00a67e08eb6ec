/**
 * The objects the OpenAPI document's examples show (docs/api.md, "The OpenAPI document"): one of
 * each resource, as a run could answer them, so that a mock server answering examples answers
 * something its own schemas accept. Operations put them together next to their entries.
 */

export const EXAMPLE_REQUEST_ID = "req_7hTq2WbX9mKc4LrN0ZpYs3Ad";
const CREATED_AT = "2025-01-01T12:00:00.000Z";

export const EXAMPLE_PAYMENT_INTENT = {
  id: "pi_lkfypXsGPkHtnj2Mf0Kfpe63",
  object: "payment_intent",
  reference: "PAY-3LOC4WVLAP",
  amount: 4200,
  currency: "EUR",
  description: "Order 42",
  capture_method: "automatic",
  state: "created",
  card: null,
  failure_reason: null,
  checkout_url: "http://127.0.0.1:7420/checkout/pi_lkfypXsGPkHtnj2Mf0Kfpe63",
  created_at: CREATED_AT,
  updated_at: CREATED_AT,
} as const;

/** The same payment intent after `pm_card_visa` authorized it (and, capturing automatically, captured it). */
export const EXAMPLE_CAPTURED_PAYMENT_INTENT = {
  ...EXAMPLE_PAYMENT_INTENT,
  state: "captured",
  card: { last4: "4242", brand: "visa" },
  updated_at: "2025-01-01T12:00:05.000Z",
} as const;

export const EXAMPLE_PAYOUT = {
  id: "po_3xY9bT2mQv8LkR4nW0cZs7Ad",
  object: "payout",
  reference: "POUT-3LOC4WVLB2",
  amount: 5000,
  currency: "EUR",
  status: "pending",
  destination_type: "card",
  destination_masked: "**** 4242",
  description: null,
  failure_reason: null,
  amount_reversed: 0,
  created_at: CREATED_AT,
  updated_at: CREATED_AT,
} as const;

export const EXAMPLE_EVENT = {
  id: "evt_8VAtDQ04x1ntZXzSrC9b6EIq",
  object: "event",
  type: "payment_intent.created",
  created_at: CREATED_AT,
  request_id: EXAMPLE_REQUEST_ID,
  data: EXAMPLE_PAYMENT_INTENT,
} as const;

export const EXAMPLE_WEBHOOK_ENDPOINT = {
  id: "we_4DelfSVoIxqn2HmJsdVAz6H6",
  object: "webhook_endpoint",
  url: "http://127.0.0.1:3000/webhooks",
  enabled_events: ["*"],
  secret: "whsec_b1Xq9TnV2mKc4LrN0ZpYs3AdWe7HjU5o",
  chaos: null,
  created_at: CREATED_AT,
} as const;

/** A delivery of the example event to the example endpoint, answered 200 at once. */
export const EXAMPLE_DELIVERY = {
  id: "del_0Vc1VvVILQxwDY96xGE0EF6Y",
  endpoint_id: EXAMPLE_WEBHOOK_ENDPOINT.id,
  url: EXAMPLE_WEBHOOK_ENDPOINT.url,
  status: "succeeded",
  next_attempt_at: null,
  attempts: [{ attempted_at: "2025-01-01T12:00:00.002Z", status_code: 200, error: null, duration_ms: 2, response_body: "", chaos: null }],
} as const;

export const EXAMPLE_FAULT = {
  id: "flt_9KcT2mQv8LkR4nW0cZs7AdXy",
  object: "fault",
  fault: "server_error",
  match: { method: "POST", path: "/v1/payment_intents/*/capture" },
  times: 1,
  remaining: 1,
  probability: 1,
  latency_ms: null,
  retry_after_seconds: null,
  created_at: CREATED_AT,
} as const;

export const EXAMPLE_CLOCK = { object: "clock", now: "2025-01-01T13:00:00.000Z", offset_seconds: 3600, time_scale: 1 } as const;

/** `resource` as an answer carries it: with the request's id last. */
export const answering = <T extends object>(resource: T) => ({ ...resource, request_id: EXAMPLE_REQUEST_ID });

/** A one-page list of `items`, as a list answers it. */
export const listing = (items: readonly object[]) => ({ object: "list", data: items, has_more: false, request_id: EXAMPLE_REQUEST_ID });

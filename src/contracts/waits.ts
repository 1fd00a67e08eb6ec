/** The contracts of the waits over HTTP (docs/testing.md, "Waiting over HTTP"). */
import * as z from "zod";
import { withRequestIdSchema } from "../domain/answer-schemas.js";
import { CHAOS_MARKS } from "../domain/chaos.js";
import { EVENT_TYPES } from "../domain/events.js";
import { MAX_ATTEMPTS } from "../domain/retry-schedule.js";
import { commaSeparated, oneOfQuery } from "./common.js";
import { deliverySchema } from "../resources/deliveries/contract.js";
import { eventSchema } from "../resources/events/contract.js";

/** The bounds of `timeout_ms`, in real milliseconds (docs/testing.md, "Waiting over HTTP"). */
const TIMEOUT_MS = { min: 1, max: 60_000, default: 5_000 } as const;

/**
 * A whole number from `min` to `max` given as query text, `fallback` when absent. The refusal
 * names the parameter; `meta` tells the OpenAPI document what the text must hold.
 */
function integerQuery(name: string, { min, max }: { min: number; max: number }, fallback: number | undefined, description: string) {
  const rule = `an integer from ${min} to ${max}`;
  return z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (raw === undefined) return fallback;
      const value = /^\d{1,9}$/.test(raw) ? Number(raw) : NaN;
      if (!(value >= min && value <= max)) {
        ctx.addIssue({ code: "custom", message: `${name} must be ${rule}; got "${raw}".` });
        return z.NEVER;
      }
      return value;
    })
    .meta({ type: "integer", minimum: min, maximum: max, ...(fallback === undefined ? {} : { default: fallback }), description });
}

const typeAlternatives = EVENT_TYPES.map((type) => type.replaceAll(".", "\\.")).join("|");

/** `type`: one event type or a comma-separated list of them; an unknown one is refused, naming it and the known ones. */
const typesQuery = commaSeparated(
  z.lazy(() =>
    z
      .string()
      .optional()
      .transform((raw, ctx) => {
        if (raw === undefined) return undefined;
        const types = raw.split(",");
        const unknown = types.find((type) => !(EVENT_TYPES as readonly string[]).includes(type));
        if (unknown !== undefined) {
          const what = unknown === "" ? "type has an empty entry" : `type "${unknown}" is not an event type`;
          ctx.addIssue({ code: "custom", message: `${what}; give one type or a comma-separated list of: ${EVENT_TYPES.join(", ")}.` });
          return z.NEVER;
        }
        return types;
      })
      .meta({
        type: "string",
        pattern: `^(${typeAlternatives})(,(${typeAlternatives}))*$`,
        description: "One event type, or a comma-separated list of them (any one matches).",
      }),
  ),
);

const nonEmpty = (name: string, description: string) =>
  z
    .string()
    .min(1, { error: `${name} must not be empty: leave it out to match any.` })
    .optional()
    .meta({ description });

export const eventsWaitQuery = z.lazy(() =>
  z.strictObject({
    type: typesQuery,
    object_id: nonEmpty("object_id", "The id of the payment intent or payout the event is about."),
    timeout_ms: integerQuery(
      "timeout_ms",
      TIMEOUT_MS,
      TIMEOUT_MS.default,
      "How long to wait, in real milliseconds (not moved by the clock); 5000 when absent.",
    ),
  }),
);

export const webhooksWaitQuery = z.lazy(() =>
  eventsWaitQuery.unwrap().extend({
    url: nonEmpty("url", "The endpoint URL, exactly as registered."),
    status: oneOfQuery("status", ["succeeded", "failed", "attempted"] as const).meta({
      description: "succeeded (the default without attempt or chaos): a 2xx was recorded; failed: given up; attempted: any attempt has ended.",
    }),
    attempt: integerQuery(
      "attempt",
      { min: 1, max: MAX_ATTEMPTS },
      undefined,
      "The delivery's attempt with this number (1 the first, 2 the first retry…) has ended, whatever it got; chaos duplicates are not counted.",
    ),
    chaos: oneOfQuery("chaos", CHAOS_MARKS).meta({
      description: "An attempt that webhook chaos made (duplicate) or marked (reordered, delayed) has ended.",
    }),
    resent: oneOfQuery("resent", ["true", "false"] as const).meta({
      description: "true: only a delivery that a resend (POST /v1/events/:id/resend) made; false: only those the event got when it happened.",
    }),
  }),
);

/** What a webhooks wait answers. */
export const webhookWaitSchema = withRequestIdSchema(
  z.lazy(() => z.strictObject({ object: z.literal("webhook_wait"), event: eventSchema, delivery: deliverySchema })),
);

/** The event the examples show: a payment captured at once. */
export const EXAMPLE_EVENT = {
  id: "evt_8VAtDQ04x1ntZXzSrC9b6EIq",
  object: "event",
  type: "payment_intent.captured",
  created_at: "2025-01-01T12:00:00.120Z",
  request_id: "req_T5FUBqigiBfasxqzKhJpO9yT",
  data: {
    id: "pi_lkfypXsGPkHtnj2Mf0Kfpe63",
    object: "payment_intent",
    reference: "PAY-3LOC4WVLAP",
    amount: 4200,
    currency: "EUR",
    description: null,
    capture_method: "automatic",
    state: "captured",
    card: { last4: "4242", brand: "visa" },
    failure_reason: null,
    checkout_url: "http://127.0.0.1:53412/checkout/pi_lkfypXsGPkHtnj2Mf0Kfpe63",
    created_at: "2025-01-01T12:00:00.100Z",
    updated_at: "2025-01-01T12:00:00.120Z",
  },
} as const;
/** Its delivery: the first attempt got a 500, the first retry a 200. */
export const EXAMPLE_DELIVERY = {
  id: "del_0Vc1VvVILQxwDY96xGE0EF6Y",
  endpoint_id: "we_4DelfSVoIxqn2HmJsdVAz6H6",
  url: "http://127.0.0.1:3000/webhooks",
  status: "succeeded",
  next_attempt_at: null,
  attempts: [
    { attempted_at: "2025-01-01T12:00:00.122Z", status_code: 500, error: null, duration_ms: 3, response_body: "try again", chaos: null },
    { attempted_at: "2025-01-01T12:00:30.122Z", status_code: 200, error: null, duration_ms: 2, response_body: "", chaos: null },
  ],
} as const;

import type { Context } from "hono";
import { Hono } from "hono";
import * as z from "zod";
import { ApiError } from "../../domain/errors.js";
import { chaosMarkSchema } from "../../domain/chaos.js";
import { EVENT_TYPES } from "../../domain/events.js";
import { MAX_ATTEMPTS } from "../../domain/retry-schedule.js";
import { parseOrThrow } from "../../domain/validation.js";
import { eventResource, eventSchema } from "../../services/events.js";
import { deliverySchema, eventWithDeliveries, eventWithDeliveriesSchema } from "../../services/deliveries-view.js";
import { withRequestIdSchema } from "../../domain/answer-schemas.js";
import { companyOf, requestIdOf, type AppDeps, type AppEnv } from "../env.js";
import { singleQuery } from "../list-query.js";
import { closeWithoutAnswer, whenAnswerSent, whenClientLeaves } from "../node-adapter.js";
import type { Operation } from "../openapi/operation.js";
import { oneOfQuery } from "../query-schemas.js";
import { jsonResponse, resourceResponse } from "../respond.js";

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
const typesQuery = z
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
  .meta({ type: "string", pattern: `^(${typeAlternatives})(,(${typeAlternatives}))*$`, description: "One event type, or a comma-separated list of them (any one matches)." });

const nonEmpty = (name: string, description: string) =>
  z.string().min(1, { error: `${name} must not be empty: leave it out to match any.` }).optional().meta({ description });

const eventsWaitQuery = z.strictObject({
  type: typesQuery,
  object_id: nonEmpty("object_id", "The id of the payment intent or payout the event is about."),
  timeout_ms: integerQuery("timeout_ms", TIMEOUT_MS, TIMEOUT_MS.default, "How long to wait, in real milliseconds (not moved by the clock); 5000 when absent."),
});

const webhooksWaitQuery = eventsWaitQuery.extend({
  url: nonEmpty("url", "The endpoint URL, exactly as registered."),
  status: oneOfQuery("status", ["succeeded", "failed", "attempted"] as const).meta({
    description: "succeeded (the default without attempt or chaos): a 2xx was recorded; failed: given up; attempted: any attempt has ended.",
  }),
  attempt: integerQuery("attempt", { min: 1, max: MAX_ATTEMPTS }, undefined, "The delivery's attempt with this number (1 the first, 2 the first retry…) has ended, whatever it got; chaos duplicates are not counted."),
  chaos: oneOfQuery("chaos", chaosMarkSchema.options).meta({ description: "An attempt that webhook chaos made (duplicate) or marked (reordered, delayed) has ended." }),
});

/** What a webhooks wait answers. */
const webhookWaitSchema = withRequestIdSchema(z.strictObject({ object: z.literal("webhook_wait"), event: eventSchema, delivery: deliverySchema }));

/** The event the examples show: a payment captured at once. */
const EXAMPLE_EVENT = {
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
const EXAMPLE_DELIVERY = {
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

const WAIT_ERRORS = ["wait_timeout", "shutting_down"] as const;

/** The operations below, for the OpenAPI document (docs/api.md). */
export const SANDBOX_WAIT_OPERATIONS: readonly Operation[] = [
  {
    operationId: "waitForEvent",
    method: "get",
    path: "/events/wait",
    summary: "Wait for the first event of this company matching the query, whether it happened before the call or happens during it",
    query: eventsWaitQuery,
    answers: { 200: eventWithDeliveriesSchema },
    ownErrors: WAIT_ERRORS,
    example: { answer: { ...EXAMPLE_EVENT, deliveries: [EXAMPLE_DELIVERY] } },
  },
  {
    operationId: "waitForWebhook",
    method: "get",
    path: "/webhooks/wait",
    summary: "Wait for the first webhook delivery of this company matching the query, whether it happened before the call or happens during it",
    query: webhooksWaitQuery,
    answers: { 200: webhookWaitSchema },
    ownErrors: WAIT_ERRORS,
    example: { answer: { object: "webhook_wait", event: EXAMPLE_EVENT, delivery: EXAMPLE_DELIVERY, request_id: "req_usHuN8KESMtePtvYjNJNyREW" } },
  },
];

/** The reason a wait ends when its client has closed the connection: nobody is left to answer. */
class ClientLeft extends Error {}

/**
 * /v1/sandbox/events/wait and /v1/sandbox/webhooks/wait: the waits of startPaysim() over HTTP,
 * for the key's company (docs/testing.md, "Waiting over HTTP"). A wait holds its request until
 * something matches or `timeout_ms` passes (408 `wait_timeout`); a stopping paysim ends it with 503
 * `shutting_down`, sent before the connections close; a client that closes its connection ends it,
 * and nothing of it stays (no listener, no timer).
 */
export function sandboxWaitRoutes({ store, waits, heldRequests }: AppDeps) {
  const app = new Hono<AppEnv>();

  /** The answer to a request whose client left: none (its connection is already gone). */
  const unanswered = (c: Context<AppEnv>) => {
    closeWithoutAnswer(c);
    return c.res;
  };

  /** Runs one wait for this request, ended early by the client leaving or paysim stopping; undefined once the client left. */
  async function held<T>(c: Context<AppEnv>, run: (signal: AbortSignal) => Promise<T>): Promise<T | undefined> {
    const controller = new AbortController();
    const forget = heldRequests.untilStop(
      () => controller.abort(new ApiError("shutting_down", "paysim is stopping: the wait ended before anything matched. Start paysim again and repeat the wait.")),
      whenAnswerSent(c),
    );
    const stopListening = whenClientLeaves(c, () => controller.abort(new ClientLeft()));
    try {
      return await run(controller.signal);
    } catch (error) {
      if (!(error instanceof ClientLeft)) throw error;
      c.set("unansweredStatus", 0);
      return undefined;
    } finally {
      forget();
      stopListening();
    }
  }

  /** The filter as a timeout's message names it: the query's own parameters but the timeout. */
  const described = (query: Record<string, string>) => {
    const { timeout_ms: _timeout, ...filter } = query;
    return JSON.stringify(filter);
  };

  app.get("/events/wait", async (c) => {
    const raw = singleQuery(c);
    const query = parseOrThrow(eventsWaitQuery, raw);
    const row = await held(c, (signal) =>
      waits.event(companyOf(c).id, { type: query.type, objectId: query.object_id }, { described: described(raw), timeoutMs: query.timeout_ms!, signal }),
    );
    if (!row) return unanswered(c);
    // As GET /v1/events/:id: the body's request_id is the request that caused the event.
    return jsonResponse(requestIdOf(c), JSON.stringify(eventWithDeliveries(store, row)));
  });

  app.get("/webhooks/wait", async (c) => {
    const raw = singleQuery(c);
    const query = parseOrThrow(webhooksWaitQuery, raw);
    const filter = { type: query.type, objectId: query.object_id, url: query.url, status: query.status, attempt: query.attempt, chaos: query.chaos };
    const found = await held(c, (signal) => waits.webhook(companyOf(c).id, filter, { described: described(raw), timeoutMs: query.timeout_ms!, signal }));
    if (!found) return unanswered(c);
    const answer: Omit<z.infer<typeof webhookWaitSchema>, "request_id"> = { object: "webhook_wait", event: eventResource(found.event), delivery: found.delivery };
    return resourceResponse(c, answer);
  });

  return app;
}

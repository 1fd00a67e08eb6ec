import type { Context } from "hono";
import type * as z from "zod";
import { eventWithDeliveriesSchema } from "../../resources/events/contract.js";
import { EXAMPLE_DELIVERY, EXAMPLE_EVENT, eventsWaitQuery, webhooksWaitQuery, webhookWaitSchema } from "../../contracts/waits.js";
import { ApiError } from "../../domain/errors.js";
import { eventResource } from "../../resources/events/service.js";
import { requestIdOf, type AppDeps, type AppEnv } from "../env.js";
import { singleQuery } from "../list-query.js";
import { closeWithoutAnswer, whenAnswerSent, whenClientLeaves } from "../node-adapter.js";
import { jsonResponse, resourceResponse } from "../respond.js";
import { defineHeld } from "./define.js";

const WAIT_ERRORS = ["wait_timeout", "shutting_down"] as const;

/** The reason a wait ends when its client has closed the connection: nobody is left to answer. */
class ClientLeft extends Error {}

/** The answer to a request whose client left: none (its connection is already gone). */
function unanswered(c: Context<AppEnv>): Response {
  return closeWithoutAnswer(c);
}

/** Runs one wait for this request, ended early by the client leaving or paysim stopping; undefined once the client left. */
async function held<T>(c: Context<AppEnv>, { heldRequests }: AppDeps, run: (signal: AbortSignal) => Promise<T>): Promise<T | undefined> {
  const controller = new AbortController();
  const forget = heldRequests.untilStop(
    () =>
      controller.abort(new ApiError("shutting_down", "paysim is stopping: the wait ended before anything matched. Start paysim again and repeat the wait.")),
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
function described(c: Context<AppEnv>): string {
  const { timeout_ms: _timeout, ...filter } = singleQuery(c);
  return JSON.stringify(filter);
}

/**
 * /v1/sandbox/events/wait and /v1/sandbox/webhooks/wait: the waits of startPaysim() over HTTP,
 * for the key's company (docs/testing.md, "Waiting over HTTP"). A wait holds its request until
 * something matches or `timeout_ms` passes (408 `wait_timeout`); a stopping paysim ends it with 503
 * `shutting_down`, sent before the connections close; a client that closes its connection ends it,
 * and nothing of it stays (no listener, no timer).
 */
export const WAIT_OPERATIONS = [
  defineHeld({
    operationId: "waitForEvent",
    method: "get",
    path: "/v1/sandbox/events/wait",
    summary: "Wait for the first event of this company matching the query, whether it happened before the call or happens during it",
    query: eventsWaitQuery,
    answers: { 200: eventWithDeliveriesSchema },
    ownErrors: WAIT_ERRORS,
    example: { answer: { ...EXAMPLE_EVENT, deliveries: [EXAMPLE_DELIVERY] } },
    held: true,
    async act({ deps, company, query }, c) {
      const row = await held(c, deps, (signal) =>
        deps.waits.event(company.id, { type: query.type, objectId: query.object_id }, { described: described(c), timeoutMs: query.timeout_ms!, signal }),
      );
      if (!row) return unanswered(c);
      // As GET /v1/events/:id: the body's request_id is the request that caused the event.
      return jsonResponse(requestIdOf(c), JSON.stringify(deps.events.withDeliveries(row)));
    },
  }),
  defineHeld({
    operationId: "waitForWebhook",
    method: "get",
    path: "/v1/sandbox/webhooks/wait",
    summary: "Wait for the first webhook delivery of this company matching the query, whether it happened before the call or happens during it",
    query: webhooksWaitQuery,
    answers: { 200: webhookWaitSchema },
    ownErrors: WAIT_ERRORS,
    example: { answer: { object: "webhook_wait", event: EXAMPLE_EVENT, delivery: EXAMPLE_DELIVERY, request_id: "req_usHuN8KESMtePtvYjNJNyREW" } },
    held: true,
    async act({ deps, company, query }, c) {
      const filter = {
        type: query.type,
        objectId: query.object_id,
        url: query.url,
        status: query.status,
        attempt: query.attempt,
        chaos: query.chaos,
        resent: query.resent === undefined ? undefined : query.resent === "true",
      };
      const found = await held(c, deps, (signal) => deps.waits.webhook(company.id, filter, { described: described(c), timeoutMs: query.timeout_ms!, signal }));
      if (!found) return unanswered(c);
      const answer: Omit<z.infer<typeof webhookWaitSchema>, "request_id"> = {
        object: "webhook_wait",
        event: eventResource(found.event),
        delivery: found.delivery,
      };
      return resourceResponse(c, answer);
    },
  }),
];

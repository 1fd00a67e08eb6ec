import type { Context } from "hono";
import { matchedRoutes } from "hono/route";
import type { Bus } from "../../bus.js";
import { maskText } from "../../domain/masking.js";
import { requestIdOf, type AppEnv } from "../env.js";
import { errorCodeOf } from "../errors.js";

/**
 * Logs a request once its answer is final (errors included, turned into answers as the app's
 * onError does) on the bus as `request.logged`: its path masked, the fault rule that hit it
 * (docs/faults.md), its company, the route that matched and the error code answered (what the
 * coverage report counts, docs/testing.md). `requestPipeline` calls it last, so every answer is logged.
 *
 * @example
 * logRequest(c, bus, started, answer);
 */
export function logRequest(c: Context<AppEnv>, bus: Bus, started: number, answer: Response): void {
  const fault = c.get("fault");
  const company = c.get("company");
  const route = routeOf(c);
  const errorCode = errorCodeOf(answer);
  const unansweredStatus = c.get("unansweredStatus");
  bus.emit("request.logged", {
    requestId: requestIdOf(c),
    method: c.req.method,
    path: loggedPath(c.req.path),
    status: unansweredStatus ?? answer.status,
    durationMs: performance.now() - started,
    ...(fault && { fault }),
    ...(company && { companyId: company.id }),
    ...(route && { route }),
    ...(errorCode && { errorCode }),
    ...(unansweredStatus !== undefined && { unanswered: true as const }),
    arrivedAtMs: started,
    ...callFacts(c, route, answer),
  });
}

/** What the findings need of a call: its key and body's fingerprint, the object a read by id named, a 429's Retry-After. */
function callFacts(c: Context<AppEnv>, route: string | undefined, answer: Response) {
  const call = c.get("call");
  const objectId = route?.endsWith("/:id") ? c.req.param("id") : undefined;
  const retryAfter = answer.status === 429 ? Number(answer.headers.get("Retry-After") ?? NaN) : NaN;
  return {
    ...(call?.idempotencyKey !== undefined && { idempotencyKey: call.idempotencyKey }),
    ...(call?.idempotent?.fingerprint !== undefined && { bodyFingerprint: call.idempotent.fingerprint }),
    // Masked like the path: a read by id may name a card number, which the report would show.
    ...(objectId !== undefined && { objectId: maskText(objectId) }),
    ...(Number.isFinite(retryAfter) && { retryAfterSeconds: retryAfter }),
  };
}

/** The route that matched this request, as mounted ("POST /v1/payouts/:id/cancel"); undefined when none did. */
export function routeOf(c: Context<AppEnv>): string | undefined {
  const route = matchedRoutes(c).find((matched) => matched.method !== "ALL");
  return route && `${route.method} ${route.path}`;
}

/**
 * The path as logs show it: card numbers masked, and the dashboard's secrets (a sign-in link's
 * token, a session's random base) replaced by "…": a log line read by someone else must not
 * sign them in, nor tell them where a session's cookie is sent. Every spelling the router may
 * take for a dashboard page is masked alike: the first segment after any `dashboard` segment
 * (empty segments of repeated slashes skipped, letter case ignored) and, after `login`, the one
 * after it.
 */
export function loggedPath(path: string): string {
  const segments = maskText(path).split("/");
  const dashboard = segments.findIndex((segment) => segment.toLowerCase() === "dashboard");
  if (dashboard === -1) return segments.join("/");
  let secret = nextNonEmpty(segments, dashboard + 1);
  if (secret !== -1 && segments[secret]!.toLowerCase() === "login") secret = nextNonEmpty(segments, secret + 1);
  if (secret !== -1) segments[secret] = "…";
  return segments.join("/");
}

function nextNonEmpty(segments: readonly string[], from: number): number {
  for (let index = from; index < segments.length; index++) if (segments[index] !== "") return index;
  return -1;
}

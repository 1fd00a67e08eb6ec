import type { Context } from "hono";
import { matchedRoutes } from "hono/route";
import type { Bus, RequestLogged } from "../../bus.js";
import { maskText } from "../../domain/masking.js";
import { requestIdOf, type AppEnv } from "../env.js";
import { errorCodeOf } from "../errors.js";

/**
 * Logs a request once its answer is final (errors included, turned into answers as the app's
 * onError does) on the bus as `request.logged`: its path masked, the fault rule that hit it
 * (docs/faults.md), its company, the route that matched and the error code answered (what the
 * coverage report counts, docs/testing.md). `requestPipeline` calls it last, so every answer is logged;
 * `started` and `ended` are read from the instance's timers.
 *
 * @example
 * logRequest(c, bus, started, timers.now(), answer);
 */
export function logRequest(c: Context<AppEnv>, bus: Bus, started: number, ended: number, answer: Response): void {
  const fault = c.get("fault");
  const company = c.get("company");
  const route = routeOf(c);
  const errorCode = errorCodeOf(answer);
  const unansweredStatus = c.get("unansweredStatus");
  const path = loggedPath(c.req.path);
  const logged: RequestLogged = {
    requestId: requestIdOf(c),
    method: c.req.method,
    path,
    status: unansweredStatus ?? answer.status,
    durationMs: ended - started,
    arrivedAtMs: started,
  };
  // Set one by one, only when there: every request is logged, and most have none of these.
  if (fault) logged.fault = fault;
  if (company) logged.companyId = company.id;
  if (route) {
    logged.route = route;
    // A read by id names its object: cut from the masked path, since a path may hold anything.
    if (route.endsWith("/:id")) logged.objectId = path.slice(path.lastIndexOf("/") + 1);
  }
  if (errorCode) logged.errorCode = errorCode;
  if (unansweredStatus !== undefined) logged.unanswered = true;
  // What the findings compare of a call: digests the idempotency layer made (a key may hold a card number too).
  const call = c.get("call");
  if (call !== undefined) {
    const { idempotent, rawBody } = call;
    if (idempotent?.keyDigest !== undefined) logged.idempotencyKeyDigest = idempotent.keyDigest;
    if (idempotent?.fingerprint !== undefined) logged.bodyFingerprint = idempotent.fingerprint;
    if (rawBody !== undefined) logged.body = rawBody;
  }
  if (answer.status === 429) {
    const retryAfter = Number(answer.headers.get("Retry-After") ?? NaN);
    if (Number.isFinite(retryAfter)) logged.retryAfterSeconds = retryAfter;
  }
  bus.emit("request.logged", logged);
}

/** The route that matched this request, as mounted ("POST /v1/payouts/:id/cancel"); undefined when none did. */
export function routeOf(c: Context<AppEnv>): string | undefined {
  const route = matchedRoutes(c).find((matched) => matched.method !== "ALL");
  if (route === undefined) return undefined;
  // Named once per route the app mounted, rather than a new string for every request.
  let named = routeNames.get(route);
  if (named === undefined) routeNames.set(route, (named = `${route.method} ${route.path}`));
  return named;
}

const routeNames = new WeakMap<object, string>();

/**
 * The path as logs show it: card numbers masked, and the dashboard's secrets (a sign-in link's
 * token, a session's random base) replaced by "…": a log line read by someone else must not
 * sign them in, nor tell them where a session's cookie is sent. Every spelling the router may
 * take for a dashboard page is masked alike: the first segment after any `dashboard` segment
 * (empty segments of repeated slashes skipped, letter case ignored) and, after `login`, the one
 * after it.
 */
export function loggedPath(path: string): string {
  const masked = maskText(path);
  // Most paths are the API's: split only one that names the dashboard, in any letter case.
  if (!DASHBOARD.test(masked)) return masked;
  const segments = masked.split("/");
  const dashboard = segments.findIndex((segment) => segment.toLowerCase() === "dashboard");
  if (dashboard === -1) return segments.join("/");
  let secret = nextNonEmpty(segments, dashboard + 1);
  if (secret !== -1 && segments[secret]!.toLowerCase() === "login") secret = nextNonEmpty(segments, secret + 1);
  if (secret !== -1) segments[secret] = "…";
  return segments.join("/");
}

const DASHBOARD = /dashboard/i;

function nextNonEmpty(segments: readonly string[], from: number): number {
  for (let index = from; index < segments.length; index++) if (segments[index] !== "") return index;
  return -1;
}

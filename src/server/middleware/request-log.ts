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
    // The sandbox's controls carry credentials (an instance's keys) and no rule reads them: their bodies stay off the bus.
    if (rawBody !== undefined && !path.startsWith("/v1/sandbox/")) logged.body = rawBody;
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
 * sign them in, nor tell them where a session's cookie is sent. Every spelling a path may take
 * is masked alike, since a 404 is logged too: it is read with its percent-escapes decoded, as
 * often as they nest (`%2F`, `%2f`, `%252F`, `%64ashboard`), `/` and `\` both separating its
 * segments; after any segment that names `dashboard` (letter case ignored, empty segments of
 * repeated slashes skipped) the next segment is replaced, and after `login` the one after it.
 * The line keeps the path as it was sent, only the secret's own characters replaced. A path still
 * encoded after MAX_DECODING_ROUNDS is no path a browser sends: it is logged as "/…" whole.
 */
export function loggedPath(path: string): string {
  // Most paths are the API's: one with no escape and no mention of the dashboard is only masked.
  if (!path.includes("%") && !DASHBOARD.test(path)) return maskText(path);
  const decoded = decodedWithOrigins(path);
  if (decoded === undefined) return "/…";
  if (!DASHBOARD.test(decoded.text)) return maskText(path);
  const segments = segmentsOf(decoded.text);
  const secrets: Segment[] = [];
  segments.forEach((segment, index) => {
    if (!DASHBOARD.test(segment.text)) return;
    let secret = nextNonEmpty(segments, index + 1);
    if (secret !== -1 && segments[secret]!.text.toLowerCase() === "login") secret = nextNonEmpty(segments, secret + 1);
    if (secret !== -1 && !secrets.includes(segments[secret]!)) secrets.push(segments[secret]!);
  });
  let hidden = "";
  let from = 0;
  for (const secret of secrets.sort((a, b) => a.start - b.start)) {
    const start = decoded.origins[secret.start]!;
    hidden += `${path.slice(from, start)}…`;
    from = decoded.origins[secret.end]!;
  }
  return maskText(hidden + path.slice(from));
}

const DASHBOARD = /dashboard/i;
const ESCAPE = /^%[0-7][0-9a-f]/i;
/**
 * How many times over a logged path's escapes are decoded. Each round reads the whole path, so
 * an unbounded count would let one request nested thousands deep cost a quadratic time; a
 * browser, a proxy and a double-encoding client together nest a few.
 */
export const MAX_DECODING_ROUNDS = 8;

/** A segment of a decoded path: its text and where it starts and ends in that path. */
interface Segment {
  text: string;
  start: number;
  end: number;
}

/** The segments of `path`, split at each `/` and `\`. */
function segmentsOf(path: string): Segment[] {
  const segments: Segment[] = [];
  let start = 0;
  for (let index = 0; index <= path.length; index++) {
    if (index < path.length && path[index] !== "/" && path[index] !== "\\") continue;
    segments.push({ text: path.slice(start, index), start, end: index });
    start = index + 1;
  }
  return segments;
}

/**
 * `text` with its percent-escapes of ASCII characters decoded, round after round until none is
 * left (`%252F` is `%2F` after one, `/` after two), and for each character of the result, and
 * its end, the index in `text` it was read from; undefined when an escape is still left after
 * MAX_DECODING_ROUNDS.
 */
function decodedWithOrigins(text: string): { text: string; origins: number[] } | undefined {
  let current = text;
  let origins = Array.from({ length: text.length + 1 }, (_, index) => index);
  for (let round = 0; round <= MAX_DECODING_ROUNDS; round++) {
    let out = "";
    const next: number[] = [];
    for (let index = 0; index < current.length;) {
      next.push(origins[index]!);
      if (current[index] === "%" && ESCAPE.test(current.slice(index, index + 3))) {
        out += String.fromCharCode(parseInt(current.slice(index + 1, index + 3), 16));
        index += 3;
      } else {
        out += current[index];
        index += 1;
      }
    }
    if (out.length === current.length) return { text: current, origins };
    next.push(origins[current.length]!);
    current = out;
    origins = next;
  }
  return undefined;
}

function nextNonEmpty(segments: readonly Segment[], from: number): number {
  for (let index = from; index < segments.length; index++) if (segments[index]!.text !== "") return index;
  return -1;
}

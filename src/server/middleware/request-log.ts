import { createMiddleware } from "hono/factory";
import { matchedRoutes } from "hono/route";
import type { Bus } from "../../bus.js";
import type { Ids } from "../../domain/ids.js";
import { maskText } from "../../domain/masking.js";
import type { AppEnv } from "../env.js";
import { errorCodeOf } from "../errors.js";

/**
 * Gives the request its `req_…` id (`c.get("requestId")`), says on the bus that
 * it began (`request.started`) and, once its answer
 * is final (errors included, turned into answers by the app's onError), logs it
 * on the bus as `request.logged`, its path masked, with the fault rule that hit
 * it (docs/faults.md), its company, the route that matched and the error code answered (what the
 * coverage report counts, docs/testing.md). Runs first, so every answer is logged and carries the id.
 *
 * @example
 * app.use(requestLog({ ids, bus }));
 */
export function requestLog({ ids, bus }: { ids: Ids; bus: Bus }) {
  return createMiddleware<AppEnv>(async function requestLogMiddleware(c, next) {
    const started = performance.now();
    const requestId = ids.newId("req");
    c.set("requestId", requestId);
    bus.emit("request.started", { requestId });
    await next();
    const fault = c.get("fault");
    const company = c.get("company");
    const route = matchedRoutes(c).find((matched) => matched.method !== "ALL");
    const errorCode = errorCodeOf(c.res);
    bus.emit("request.logged", {
      requestId,
      method: c.req.method,
      path: loggedPath(c.req.path),
      status: c.get("unansweredStatus") ?? c.res.status,
      durationMs: performance.now() - started,
      ...(fault && { fault }),
      ...(company && { companyId: company.id }),
      ...(route && { route: `${route.method} ${route.path}` }),
      ...(errorCode && { errorCode }),
    });
  });
}

/**
 * The path as logs show it: card numbers masked, and the dashboard's secrets (a sign-in link's
 * token, a session's random base) replaced by "…": a log line read by someone else must not
 * sign them in, nor tell them where a session's cookie is sent.
 */
export function loggedPath(path: string): string {
  const masked = maskText(path);
  if (!masked.startsWith("/dashboard/")) return masked;
  const [, , first, ...rest] = masked.split("/");
  if (first === "login") return rest.length > 0 ? "/dashboard/login/…" : masked;
  return ["/dashboard", "…", ...rest].join("/");
}

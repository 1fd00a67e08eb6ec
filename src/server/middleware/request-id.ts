import type { MiddlewareHandler } from "hono";
import type { Bus } from "../../bus.js";
import { newId } from "../../domain/ids.js";
import { maskText } from "../../domain/masking.js";
import type { AppEnv } from "../env.js";
import { carriesRequestId } from "../respond.js";

/**
 * Gives every request its `req_…` id (the `Request-Id` header of every answer),
 * holds the answer until what it may have seen is durable (reads share the
 * connection with the open group commit), and announces it on the bus once
 * answered, for the log and the live view. One layer rather than three: each
 * async middleware costs every request.
 */
export function requestId(bus: Bus, settled: () => Promise<void>): MiddlewareHandler<AppEnv> {
  return async function requestIdMiddleware(c, next) {
    const started = performance.now();
    const id = newId("req");
    c.set("requestId", id);
    await next();
    await settled();
    // Reading c.res.headers turns a plain-object Response into a Headers one: only when needed.
    if (!carriesRequestId(c.res)) c.res.headers.set("Request-Id", id);
    bus.emit("request.logged", {
      requestId: id,
      method: c.req.method,
      path: maskText(c.req.path),
      status: c.res.status,
      durationMs: performance.now() - started,
    });
  };
}

import type { MiddlewareHandler } from "hono";
import { ApiError } from "../../domain/errors.js";
import type { AppEnv } from "../env.js";

const LOOPBACK_NAMES = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** The host name of a Host header, without its port. */
export function hostName(header: string): string {
  const host = header.trim().toLowerCase();
  if (host.startsWith("[")) return host.slice(0, host.indexOf("]") + 1);
  const colon = host.indexOf(":");
  return colon === -1 ? host : host.slice(0, colon);
}

/**
 * While paysim listens on loopback, a page on another site must not reach it
 * through a rebound DNS name: only loopback Host headers are served.
 */
export function hostGuard(enabled: boolean): MiddlewareHandler<AppEnv> {
  return async function hostGuardMiddleware(c, next) {
    if (enabled) {
      const host = c.req.header("host");
      if (host === undefined || !LOOPBACK_NAMES.has(hostName(host))) {
        throw new ApiError(
          "forbidden",
          "This paysim listens on loopback only: use http://127.0.0.1 or http://localhost (start with --host to listen elsewhere).",
        );
      }
    }
    await next();
  };
}

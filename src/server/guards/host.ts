import { ApiError } from "../../domain/errors.js";

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
 * through a rebound DNS name: only loopback Host headers are served. Throws
 * the 403 for any other Host.
 */
export function hostGuard(enabled: boolean): (host: string | undefined) => void {
  return function checkHost(host) {
    if (!enabled) return;
    if (host === undefined || !LOOPBACK_NAMES.has(hostName(host))) {
      throw new ApiError(
        "forbidden",
        "This paysim listens on loopback only: use http://127.0.0.1 or http://localhost (start with --host to listen elsewhere).",
      );
    }
  };
}

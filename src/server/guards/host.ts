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
 * The authority a request target names, when it is in absolute form
 * (`GET http://host/path HTTP/1.1`): the request is then served as that host,
 * whatever its Host header says. Undefined for the usual `/path` and for `*`;
 * "" when the target cannot be read as a URL.
 */
export function targetAuthority(target: string | undefined): string | undefined {
  if (target === undefined || target.startsWith("/") || target === "*") return undefined;
  try {
    return new URL(target).host;
  } catch {
    return "";
  }
}

const isLoopback = (host: string | undefined) => host !== undefined && LOOPBACK_NAMES.has(hostName(host));

/**
 * While paysim listens on loopback, a page on another site must not reach it
 * through a rebound DNS name: only loopback Host headers are served, and an
 * absolute-form request target must name a loopback host too. Throws the 403
 * for anything else.
 */
export function hostGuard(enabled: boolean): (host: string | undefined, target?: string) => void {
  return function checkHost(host, target) {
    if (!enabled) return;
    const authority = targetAuthority(target);
    if (!isLoopback(host) || (authority !== undefined && !isLoopback(authority))) {
      throw new ApiError(
        "forbidden",
        "This paysim listens on loopback only: use http://127.0.0.1 or http://localhost (start with --host to listen elsewhere).",
      );
    }
  };
}

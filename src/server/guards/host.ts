import type { Context } from "hono";
import { ApiError } from "../../domain/errors.js";
import type { AppEnv } from "../env.js";
import { headerLineCount, hostAndTarget } from "../node-adapter.js";
import { refuseRepeated } from "./repeated-header.js";

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

/**
 * While paysim listens on loopback, a page on another site must not reach it
 * through a rebound DNS name: only the Host names in `allowed` (see
 * domain/loopback.ts) are served, and an absolute-form request target must
 * name one of them too. Throws the 403 for anything else; `allowed` undefined
 * (listening beyond loopback) lets everything through.
 */
export function hostCheck(allowed: ReadonlySet<string> | undefined): (host: string | undefined, target?: string) => void {
  const served = (host: string | undefined) => host !== undefined && allowed!.has(hostName(host));
  return function checkHost(host, target) {
    if (allowed === undefined) return;
    const authority = targetAuthority(target);
    if (!served(host) || (authority !== undefined && !served(authority))) {
      throw new ApiError(
        "forbidden",
        "This paysim listens on loopback only: use http://127.0.0.1 or http://localhost (start with --host to listen elsewhere).",
      );
    }
  };
}

/**
 * `hostCheck` on a request: its Host (sent once) and an absolute-form target; throws the 403 or 400.
 *
 * @example
 * const checkHost = requestHostCheck(loopbackHostNames("127.0.0.1"));
 * checkHost(c);
 */
export function requestHostCheck(allowed: ReadonlySet<string> | undefined): (c: Context<AppEnv>) => void {
  const checkHost = hostCheck(allowed);
  return function checkRequestHost(c) {
    const { host, target } = hostAndTarget(c);
    checkHost(host, target);
    refuseRepeated(headerLineCount(c, "host"), "Host", "invalid_request");
  };
}

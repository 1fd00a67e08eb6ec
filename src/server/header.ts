import type { Context } from "hono";
import { incomingOf } from "./env.js";

/**
 * A request header. On Node it is read from the IncomingMessage's own parsed
 * headers: a web Request's `headers` (what Hono's `c.req.header` reads) is a
 * `Headers` of every header the request carries, built on first use, which
 * cost a small request about a fifth of the floor's whole time. Elsewhere it
 * is the web Request's.
 *
 * Node keeps the first of a repeated Host, Authorization, Content-Type or
 * Content-Length and joins other repeats with ", ", as a web Headers would.
 */
export function headerOf(request: Request, env: unknown, name: Lowercase<string>): string | undefined {
  const incoming = incomingOf(env);
  if (!incoming) return request.headers.get(name) ?? undefined;
  const value = incoming.headers[name];
  return Array.isArray(value) ? value.join(", ") : value;
}

/** `headerOf` this request. */
export function header(c: Context, name: Lowercase<string>): string | undefined {
  return headerOf(c.req.raw, c.env, name);
}

/**
 * How many times this request carries header `name`. On Node every line is
 * counted (its parsed headers join repeats into one value); elsewhere a web
 * Headers has already joined them, so a present header counts once.
 */
export function headerLineCount(c: Context, name: Lowercase<string>): number {
  const incoming = incomingOf(c.env);
  if (!incoming) return c.req.raw.headers.has(name) ? 1 : 0;
  const raw = incoming.rawHeaders;
  let count = 0;
  for (let i = 0; i < raw.length; i += 2) if (raw[i]!.length === name.length && raw[i]!.toLowerCase() === name) count++;
  return count;
}

/**
 * Everything the HTTP layer knows about being served by Node through
 * @hono/node-server, in one place. The app itself is plain Hono and runs the
 * same under `app.request()`; what is here either needs Node's own request
 * (`c.env.incoming`) or only pays off on a real socket:
 *
 * - requests read from Node's IncomingMessage (headers, the raw header lines,
 *   an absolute-form target, a body taken in one read()) instead of a web
 *   Request built for each of them (what each saves: docs/performance.md);
 * - `serveOnNode` holds answers to the end of the event loop's turn, so that
 *   answers to every request read in that turn leave together;
 * - a fault rule (docs/faults.md) closes a request's connection with no answer, or
 *   notices that the client or a stopping paysim closed it first.
 *
 * Elsewhere each reader falls back to the web Request.
 */
import type { Http2Bindings, HttpBindings } from "@hono/node-server";
import { RESPONSE_ALREADY_SENT } from "@hono/node-server/utils/response";
import type { Context, Hono } from "hono";
import type { IncomingMessage } from "node:http";
import type { ApiError } from "../domain/errors.js";
import type { AppEnv, NodeBindings } from "./env.js";
import { createTurnEnd } from "./turn-end.js";

/** The Node request behind this request, when @hono/node-server serves it (not under app.request). */
function incomingOf(c: Context<AppEnv>): IncomingMessage | undefined {
  return (c.env as NodeBindings | undefined)?.incoming;
}

/**
 * A request header. On Node it is read from the IncomingMessage's own parsed
 * headers: a web Request's `headers` (what Hono's `c.req.header` reads) is a
 * `Headers` of every header the request carries, built on first use, which
 * cost a small request about a fifth of the floor's whole time.
 *
 * Node keeps the first of a repeated Host, Authorization, Content-Type or
 * Content-Length and joins other repeats with ", ", as a web Headers would.
 */
export function header(c: Context<AppEnv>, name: Lowercase<string>): string | undefined {
  const incoming = incomingOf(c);
  if (!incoming) return c.req.raw.headers.get(name) ?? undefined;
  const value = incoming.headers[name];
  return Array.isArray(value) ? value.join(", ") : value;
}

/**
 * How many times this request carries header `name`. On Node every line is
 * counted (its parsed headers join repeats into one value); elsewhere a web
 * Headers has already joined them, so a present header counts once.
 */
export function headerLineCount(c: Context<AppEnv>, name: Lowercase<string>): number {
  const incoming = incomingOf(c);
  if (!incoming) return c.req.raw.headers.has(name) ? 1 : 0;
  const raw = incoming.rawHeaders;
  let count = 0;
  for (let i = 0; i < raw.length; i += 2) if (raw[i]!.length === name.length && raw[i]!.toLowerCase() === name) count++;
  return count;
}

/**
 * The authority the request is served as, and its request target when that
 * target could name another one (absolute form, only visible on Node). Under
 * `app.request()` the URL's own authority is the Host.
 */
export function hostAndTarget(c: Context<AppEnv>): { host: string | undefined; target: string | undefined } {
  const incoming = incomingOf(c);
  if (!incoming) return { host: c.req.raw.headers.get("host") ?? new URL(c.req.url).host, target: undefined };
  return { host: header(c, "host"), target: incoming.url };
}

/** How much body a route takes, and the errors for more and for a body cut short. */
export interface BodyLimit {
  maxBytes: number;
  tooLarge: () => ApiError;
  cutShort: () => ApiError;
}

/**
 * The body of a request served by Node, read from the IncomingMessage itself:
 * building a web Request and its stream just to read a small JSON body cost a
 * tenth of a request's time. Undefined when the request is not Node's (or its
 * body was read already): the caller then reads the web Request.
 */
export function readNodeBody(c: Context<AppEnv>, limit: BodyLimit): Promise<Uint8Array> | undefined {
  const incoming = incomingOf(c);
  if (!incoming || incoming.readableDidRead) return undefined;
  return readIncoming(incoming, limit);
}

/**
 * A small body usually arrives in the packet its headers came in, but the
 * handler starts while Node's parser is still inside that packet. Waiting for
 * the end of the event loop's turn lets the parser finish it and every other
 * request that was ready: each complete body then sits whole in its stream's
 * buffer, and a single read() takes it, without the listeners, flowing mode and
 * events of reading it as a stream. Anything else (a body still arriving, or
 * too large) is read as a stream.
 */
async function readIncoming(incoming: IncomingMessage, limit: BodyLimit): Promise<Uint8Array> {
  await new Promise(setImmediate);
  if (incoming.complete && incoming.readableLength <= limit.maxBytes) {
    // Reading everything from an ended stream lets it emit "end", as Node's keep-alive expects.
    return (incoming.read() as Buffer | null) ?? new Uint8Array();
  }
  // The client went away while we waited: its "close" has already been emitted.
  if (incoming.destroyed) throw limit.cutShort();
  return readStreaming(incoming, limit);
}

/**
 * Reads a Node request body with listeners rather than an async iterator: leaving
 * an iterator early destroys the socket, and a 413 could then not be answered.
 * The rest of a too-large body is read and dropped.
 */
function readStreaming(incoming: IncomingMessage, limit: BodyLimit): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      outcome();
    };
    incoming.on("data", (chunk: Buffer) => {
      if (settled) return;
      size += chunk.byteLength;
      if (size > limit.maxBytes) settle(() => reject(limit.tooLarge()));
      else parts.push(chunk);
    });
    incoming.on("end", () => settle(() => resolve(parts.length === 1 ? parts[0]! : Buffer.concat(parts))));
    incoming.on("error", () => settle(() => reject(limit.cutShort())));
    incoming.on("close", () => settle(() => reject(limit.cutShort())));
  });
}

/**
 * Closes this request's connection without a byte of answer, as a network that lost it would:
 * the client sees the connection end. What is left to send is dropped: answers the request's
 * answer, one @hono/node-server knows was sent already. Without a socket (`app.request()`)
 * there is nothing to close, and that empty answer is what the caller gets.
 */
export function closeWithoutAnswer(c: Context<AppEnv>): Response {
  incomingOf(c)?.socket.destroy();
  return RESPONSE_ALREADY_SENT;
}

/**
 * Calls `onLeft` once this request's client has closed its connection, even only its sending side,
 * or at once if it has. For an answer that waits on what happens (the HTTP waits): paysim keeps
 * a half-closed connection open to answer (http-listener.ts), but a client that gives up on a wait
 * (curl's Ctrl-C, fetch's abort, a test runner's timeout) shows first as that half-close, and it is
 * the only sign of it until an answer is written. Answers the function that stops listening.
 */
export function whenClientLeaves(c: Context<AppEnv>, onLeft: () => void): () => void {
  const socket = incomingOf(c)?.socket;
  if (!socket) return () => {};
  if (socket.destroyed || socket.readableEnded) {
    onLeft();
    return () => {};
  }
  socket.once("end", onLeft);
  socket.once("close", onLeft);
  return () => {
    socket.off("end", onLeft);
    socket.off("close", onLeft);
  };
}

/**
 * Resolves once this request's answer has been handed to its connection, or the connection has
 * closed; at once without a socket (`app.request()`), where the answer is the handler's return.
 */
export function whenAnswerSent(c: Context<AppEnv>): Promise<void> {
  const outgoing = (c.env as NodeBindings | undefined)?.outgoing;
  if (!outgoing || outgoing.writableFinished || outgoing.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      outgoing.off("finish", done);
      outgoing.off("close", done);
      resolve();
    };
    outgoing.on("finish", done);
    outgoing.on("close", done);
  });
}

/**
 * Hands this request to another app (a part of paysim loaded on demand, app.ts) with its Node
 * bindings, so that the readers here find Node's request there too.
 */
export function handOver<E extends AppEnv>(app: Hono<E>, c: Context<AppEnv>): Response | Promise<Response> {
  return app.fetch(c.req.raw, c.env);
}

/** The fetch handler @hono/node-server serves (paysim serves HTTP/1.1: its bindings are `NodeBindings`). */
export type NodeFetch = (request: Request, env: HttpBindings | Http2Bindings) => Promise<Response>;

/**
 * The app's fetch for @hono/node-server, with each answer held until the end of
 * the event loop's turn: written the moment it was ready, each answer woke the
 * client on its own, which cost a read more than twice what paysim does to find
 * the payment intent. The wait is at most one turn of the loop. Answers keep
 * the plain-object headers `jsonResponse` gives them, which @hono/node-server
 * writes straight out.
 *
 * @example
 * serve({ fetch: serveOnNode(createApp(deps, modules)), port: 4010 });
 */
export function serveOnNode<E extends AppEnv>(app: Hono<E>): NodeFetch {
  const atTurnEnd = createTurnEnd();
  return (request, env) => Promise.resolve(app.fetch(request, env as NodeBindings)).then((response) => atTurnEnd(() => response));
}

import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import { getRequestListener } from "@hono/node-server";
import { createIds } from "./domain/ids.js";

/** A fetch handler as @hono/node-server calls it: the web Request, and Node's request and response. */
export type NodeServedFetch = Parameters<typeof getRequestListener>[0];

/**
 * A port paysim holds, with its URL known, before anything answers on it: the services are
 * built knowing their own address, then `serve` hands requests to the app.
 */
export interface HttpListener {
  /** Where clients reach it, e.g. "http://127.0.0.1:53411" (a wildcard host reads as 127.0.0.1). */
  readonly url: string;
  readonly port: number;
  /** Answers every request with `fetch` from now on. Call once, before yielding to the event loop. */
  serve(fetch: NodeServedFetch): void;
  /** Stops listening and drops open connections. */
  close(): Promise<void>;
}

/**
 * Listens on `host:port` (0 picks a free port) and resolves once it does, or rejects
 * with a message naming the fix when the port is taken.
 */
export function listenHttp(port: number, host: string): Promise<HttpListener> {
  const server = createServer();
  // A client may half-close its side right after sending a request (a raw socket's end()). By
  // default Node then closes the connection at once, dropping an answer that waits for the group
  // commit or the end of the turn; with this it sends the answer, then closes.
  (server as Server & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;
  server.on("clientError", answerUnreadableRequest);
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      reject(error.code === "EADDRINUSE" ? new Error(`Port ${port} on ${host} is already in use: stop the other process or pass --port.`) : error);
    };
    server.once("error", onError);
    server.listen(port, host, () => {
      server.off("error", onError);
      const bound = (server.address() as AddressInfo).port;
      resolve({
        url: `http://${urlHost(host)}:${bound}`,
        port: bound,
        serve: (fetch) => void server.on("request", getRequestListener(fetch, { hostname: host, errorHandler: unreadableTargetAnswer })),
        close: () => closeServer(server),
      });
    });
  });
}

/**
 * A listener that holds no port: nothing answers on `url`, which only names where paysim
 * would listen. An instance built on it is reached through its app's `request()` alone.
 */
export function portlessListener(port: number, host: string): HttpListener {
  return { url: `http://${urlHost(host)}:${port}`, port, serve: () => {}, close: async () => {} };
}

/** The host as a URL writes it: a wildcard address is reached on loopback, an IPv6 one goes in brackets. */
function urlHost(host: string): string {
  if (host === "0.0.0.0" || host === "::") return "127.0.0.1";
  return host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

/** Sockets already answered: Node's parser may report the same broken request more than once. */
const answered = new WeakSet<Duplex>();
const unreadableRequestIds = createIds();
/** How long a refused client may go on sending before its connection is dropped. */
const LINGER_MS = 5_000;

/**
 * Node's own parser refuses a request it cannot read (a target with a space, `HTTP://…`, headers
 * over its limit) before paysim sees it; by default it answers a bare 400 and destroys the socket,
 * which resets the connection while the client is still sending its body, so the client may
 * never read that answer. This answers in the API's error shape, with a request id, then stops
 * writing but goes on reading (and dropping) what the client still sends, so that the answer
 * arrives before the connection closes.
 */
function answerUnreadableRequest(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (answered.has(socket)) return;
  answered.add(socket);
  if (error.code === "ECONNRESET" || !socket.writable) {
    socket.destroy();
    return;
  }
  const [status, reason, message] =
    error.code === "HPE_HEADER_OVERFLOW"
      ? [431, "Request Header Fields Too Large", "The request's headers are larger than paysim reads (16 KiB): send fewer or shorter headers."]
      : error.code === "ERR_HTTP_REQUEST_TIMEOUT"
        ? [408, "Request Timeout", "The request did not arrive in time: send the whole request at once."]
        : [400, "Bad Request", UNREADABLE_REQUEST];
  const { requestId, body } = errorBody(message);
  socket.on("data", () => {});
  const linger = setTimeout(() => socket.destroy(), LINGER_MS).unref();
  socket.once("close", () => clearTimeout(linger));
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
  );
}

const UNREADABLE_REQUEST =
  "The request could not be read as HTTP/1.1: check its request line (a method, a target starting with /, the HTTP version) and its headers.";

/**
 * The answer to a request Node parsed but the listener cannot turn into a web Request (a target
 * such as `*` or `HTTP://…`): the API's error shape instead of the listener's bare 400. Nothing
 * else reaches here: paysim's app answers its own errors.
 */
function unreadableTargetAnswer(): Response {
  const { requestId, body } = errorBody(UNREADABLE_REQUEST);
  return new Response(body, { status: 400, headers: { "Content-Type": "application/json; charset=utf-8", "Request-Id": requestId } });
}

function errorBody(message: string): { requestId: string; body: string } {
  const requestId = unreadableRequestIds.newId("req");
  return { requestId, body: JSON.stringify({ error: { code: "invalid_request", message }, request_id: requestId }) };
}

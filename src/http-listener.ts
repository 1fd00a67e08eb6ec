import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { getRequestListener } from "@hono/node-server";

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
        serve: (fetch) => void server.on("request", getRequestListener(fetch, { hostname: host })),
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

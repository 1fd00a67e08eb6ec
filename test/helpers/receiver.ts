import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

/** One request as it reached the receiver: the raw body bytes, never re-serialised. */
export interface ReceivedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** What the receiver did with it. */
  behaviour: Behaviour;
  /**
   * Whether a whole answer was written before the client went away (a "hang" released later is not
   * counted, nor an "unfinished-body" one, whose body never ends).
   */
  answered: boolean;
}

/**
 * What the receiver does with a request once its body has arrived:
 * - a number: answer with that status (and a short body);
 * - "hang": answer nothing until `release()` or until the client closes the socket;
 * - "destroy": close the connection without answering (the client sees a reset);
 * - "unfinished-body": answer `200` headers announcing a 1 KiB body, send a few bytes of it, and
 *   never the rest, until the client closes the socket (a receiver stuck mid-answer);
 * - `{ status, afterMs }`: answer `status`, but only after `afterMs` (a slow receiver);
 * - `{ status, bodyBytes }`: answer `status` at once with a body of that many bytes (a big answer).
 */
export type Behaviour = number | "hang" | "destroy" | "unfinished-body" | { status: number; afterMs: number } | { status: number; bodyBytes: number };

/** Chooses the behaviour of each request from the request itself (its body, its headers). */
export type ChooseBehaviour = (request: Pick<ReceivedRequest, "method" | "url" | "headers" | "body">) => Behaviour;

export interface Receiver {
  /** `http://127.0.0.1:<port>/hooks`: where paysim is told to deliver. */
  readonly url: string;
  /** Every request received so far, in arrival order. */
  readonly requests: readonly ReceivedRequest[];
  /** Requests currently held open by "hang". */
  hangingCount(): number;
  /** Resolves at the next change of what it holds: a request arriving (body complete), or a hanging one closing. */
  nextChange(): Promise<void>;
  /** Answers currently held open mid-body by "unfinished-body". */
  unfinishedCount(): number;
  /** Resolves with the requests once at least `n` have arrived (body complete). */
  waitForRequests(n: number): Promise<ReceivedRequest[]>;
  /** The behaviour of every request that has no queued one left (or a function choosing it per request). */
  respondWith(behaviour: Behaviour | ChooseBehaviour): void;
  /** Behaviours for the next requests, one each, before falling back to `respondWith`'s. */
  queue(...behaviours: Behaviour[]): void;
  /** Answers every hanging request with `status`. */
  release(status?: number): void;
  /** Destroys every open socket (hanging ones included) and stops listening. */
  close(): Promise<void>;
}

/**
 * A real webhook receiver on 127.0.0.1 (random port), programmable per request.
 *
 * @example
 * const receiver = await startReceiver();
 * receiver.queue(500, 500);           // the first two attempts fail
 * const [first] = await receiver.waitForRequests(1);
 */
export async function startReceiver(initial: Behaviour | ChooseBehaviour = 200): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  const queued: Behaviour[] = [];
  const hanging = new Set<ServerResponse>();
  const unfinished = new Set<ServerResponse>();
  const sockets = new Set<Socket>();
  const waiters: { n: number; resolve: (requests: ReceivedRequest[]) => void }[] = [];
  let fallback: Behaviour | ChooseBehaviour = initial;
  let changeSeen: (() => void) | undefined;
  let change: Promise<void> | undefined;
  const changed = () => {
    changeSeen?.();
    change = changeSeen = undefined;
  };

  const notify = () => {
    changed();
    for (const waiter of [...waiters]) {
      if (requests.length >= waiter.n) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve([...requests]);
      }
    }
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const seen = { method: req.method ?? "", url: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks) };
      const behaviour = queued.length > 0 ? queued.shift()! : typeof fallback === "function" ? fallback(seen) : fallback;
      const request: ReceivedRequest = { ...seen, behaviour, answered: false };
      requests.push(request);
      const answer = (status: number) => {
        if (res.destroyed) return; // the client gave up first (e.g. its timeout)
        request.answered = true;
        res.writeHead(status, { "Content-Type": "text/plain" }).end(`answered ${status}`);
      };
      if (behaviour === "destroy") {
        req.socket.destroy();
      } else if (behaviour === "hang") {
        hanging.add(res);
        res.on("close", () => hanging.delete(res) && changed());
      } else if (behaviour === "unfinished-body") {
        unfinished.add(res);
        res.on("close", () => unfinished.delete(res));
        res.writeHead(200, { "Content-Type": "text/plain", "Content-Length": "1024" });
        res.write("answered 2");
      } else if (typeof behaviour === "number") {
        answer(behaviour);
      } else if ("bodyBytes" in behaviour) {
        request.answered = true;
        res.writeHead(behaviour.status, { "Content-Type": "text/plain", "Content-Length": String(behaviour.bodyBytes) });
        res.end(Buffer.alloc(behaviour.bodyBytes, "a"));
      } else {
        const timer = setTimeout(() => answer(behaviour.status), behaviour.afterMs);
        res.on("close", () => clearTimeout(timer));
      }
      notify();
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/hooks`,
    requests,
    hangingCount: () => hanging.size,
    nextChange: () => (change ??= new Promise<void>((resolve) => (changeSeen = resolve))),
    unfinishedCount: () => unfinished.size,
    waitForRequests(n) {
      return new Promise((resolve) => {
        waiters.push({ n, resolve });
        notify();
      });
    },
    respondWith(behaviour) {
      fallback = behaviour;
    },
    queue(...behaviours) {
      queued.push(...behaviours);
    },
    release(status = 200) {
      for (const res of [...hanging]) {
        hanging.delete(res);
        res.writeHead(status, { "Content-Type": "text/plain" }).end(`answered ${status}`);
      }
      changed();
    },
    close() {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A port of 127.0.0.1 where nothing listens: one the OS just gave a server that was then closed. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A URL on 127.0.0.1 where nothing listens. */
export async function closedPortUrl(): Promise<string> {
  return `http://127.0.0.1:${await freePort()}/hooks`;
}

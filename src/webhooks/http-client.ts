import { Agent as HttpAgent, request as httpRequest, type ClientRequest, type IncomingMessage, type RequestOptions } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { urlToHttpOptions } from "node:url";
import { realTimers, type Timers } from "../runtime/timers.js";

/**
 * The most header bytes an answer may carry. Node's default, 16 KiB, is less than some
 * frameworks' answers (a pile of cookies, a long CSP): past it Node reports a parse error, as if
 * nothing had answered.
 */
export const MAX_ANSWER_HEADER_BYTES = 256 * 1024;

/** Why a request got no HTTP answer, in words a developer can act on. */
export function describeFailure(error: unknown, timeoutMs: number): string {
  const err = error as { name?: string; code?: string; connected?: boolean };
  if (err?.name === "TimeoutError")
    return err.connected === false ? `timeout: no connection within ${timeoutMs} ms` : `timeout: no response within ${timeoutMs} ms`;
  const code = err?.code;
  if (code === "ECONNREFUSED") return "connection refused";
  if (code === "ECONNRESET" || code === "EPIPE") return "connection reset";
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return "host not found";
  // The receiver answered, with something node:http could not read as an HTTP answer.
  if (code === "HPE_HEADER_OVERFLOW") return `answered with headers over ${MAX_ANSWER_HEADER_BYTES / 1024} KiB, more than paysim reads`;
  if (code?.startsWith("HPE_")) return `answered with something that is not valid HTTP (${code})`;
  return code ? `network error (${code})` : "network error";
}

class TimeoutError extends Error {
  override name = "TimeoutError";
  /** Whether a connection to the receiver was made before the time ran out. */
  constructor(readonly connected: boolean) {
    super("timeout");
  }
}

/** How much of an answer's body is kept; the rest is read and thrown away. */
export const RESPONSE_HEAD_BYTES = 1024;

/**
 * An idle pooled connection is closed after this long (sooner when the
 * receiver announces a shorter keep-alive), so connections to receivers no
 * longer delivered to do not stay open, nor the pool's record of their origin.
 */
const IDLE_CONNECTION_MS = 15_000;

export interface PostOutcome {
  statusCode: number | null;
  error: string | null;
  /** The first RESPONSE_HEAD_BYTES of the answer's body (empty without an answer); unmasked. */
  responseHead: Buffer;
}

interface Target {
  send: typeof httpRequest;
  options: RequestOptions;
  host: string;
  /** Attempts to this URL in flight. */
  users: number;
}

/**
 * POSTs webhook bodies over keep-alive connections, one pool per instance
 * (closed with it). node:http rather than fetch: an attempt costs a fraction
 * of fetch's, redirects are not followed (a 3xx is a failed attempt), and a
 * plain timer bounds each attempt.
 *
 * The pool has no cap on connections per host:port: an attempt never waits for
 * a connection another attempt holds, so its timeout measures the receiver
 * alone, and no endpoint can slow down one that shares its host:port. (How many
 * attempts run at once is the scheduler's business, per endpoint, and its
 * waiting does not count.) An answer counts once its whole body has arrived;
 * an attempt cut off (timeout, stop) destroys its connection, which therefore
 * never goes back to the pool. The timeouts run on `timers` (Node's by default).
 */
export function createWebhookClient(timers: Timers = realTimers) {
  const agents = {
    "http:": new HttpAgent({ keepAlive: true, timeout: IDLE_CONNECTION_MS }),
    "https:": new HttpsAgent({ keepAlive: true, timeout: IDLE_CONNECTION_MS }),
  };
  /**
   * Each endpoint URL parsed once into request options while attempts to it are
   * in flight (parsing it, and turning a URL object into options, cost a third
   * of building each request); dropped with its last attempt, so that nothing is
   * kept for a URL no longer delivered to.
   */
  const targets = new Map<string, Target>();
  function acquire(url: string): Target {
    let target = targets.get(url);
    if (!target) {
      const parsed = new URL(url);
      const protocol = parsed.protocol as keyof typeof agents;
      // Another protocol gets no agent, and node:http refuses it as before (a failed attempt).
      target = {
        send: protocol === "https:" ? httpsRequest : httpRequest,
        options: { ...urlToHttpOptions(parsed), method: "POST", agent: agents[protocol], maxHeaderSize: MAX_ANSWER_HEADER_BYTES },
        host: parsed.host, // what node:http would send: the port only when it is not the default
        users: 0,
      };
      targets.set(url, target);
    }
    target.users += 1;
    return target;
  }
  function release(url: string): void {
    const target = targets.get(url);
    if (target && --target.users === 0) targets.delete(url);
  }

  return {
    /**
     * Resolves with the status once the whole answer has arrived within the
     * timeout (its body read: the first bytes kept, the rest discarded), or
     * with why there was none. Rejects only when `stop` aborts it.
     */
    post(url: string, body: string, headers: Record<string, string>, timeoutMs: number, stop: AbortSignal): Promise<PostOutcome> {
      return new Promise((resolve, reject) => {
        let settled = false;
        let acquired = false;
        let req: ClientRequest | undefined;
        let connected = false;
        const finish = (outcome: PostOutcome | Error) => {
          if (settled) return;
          settled = true;
          timers.clearTimeout(timer);
          stop.removeEventListener("abort", onStop);
          if (acquired) release(url);
          if (outcome instanceof Error) reject(outcome);
          else resolve(outcome);
        };
        const failed = (error: unknown) => finish({ statusCode: null, error: describeFailure(error, timeoutMs), responseHead: Buffer.alloc(0) });
        const onStop = () => {
          req?.destroy();
          finish(new Error("paysim is stopping"));
        };
        // Started with the request: with no cap on connections it waits for none, only for the receiver.
        const timer = timers.setTimeout(() => {
          // Destroying the request closes its connection, mid-answer or not: it is never reused.
          req?.destroy();
          failed(new TimeoutError(connected));
        }, timeoutMs);
        if (stop.aborted) return onStop();
        stop.addEventListener("abort", onStop);
        try {
          const { send, options, host } = acquire(url);
          acquired = true;
          // Headers as a flat list go straight into the request head; as an object each would be set,
          // and checked, one call at a time (with the Host header added).
          // Endpoint URLs carry no credentials (refused on creation), so no Authorization is lost.
          const flat = ["Host", host];
          for (const name in headers) flat.push(name, headers[name]!);
          flat.push("Content-Length", String(Buffer.byteLength(body)));
          req = send({ ...options, headers: flat });
        } catch (error) {
          return failed(error);
        }
        req.on("socket", (socket) => {
          if (!socket.connecting) connected = true;
          else socket.once("connect", () => (connected = true));
        });
        req.on("response", (res: IncomingMessage) => {
          const kept: Buffer[] = [];
          let keptBytes = 0;
          res.on("data", (chunk: Buffer) => {
            if (keptBytes >= RESPONSE_HEAD_BYTES) return;
            const part = Buffer.from(chunk.subarray(0, RESPONSE_HEAD_BYTES - keptBytes));
            kept.push(part);
            keptBytes += part.length;
          });
          res.on("end", () => finish({ statusCode: res.statusCode ?? null, error: null, responseHead: Buffer.concat(kept) }));
          // The connection broke mid-body (node reports it as a reset): the answer never arrived whole.
          res.on("error", failed);
          res.on("close", () => {
            if (!res.complete) failed(Object.assign(new Error("answer cut off"), { code: "ECONNRESET" }));
          });
        });
        req.on("error", failed);
        req.end(body);
      });
    },

    /** Connections the pool holds (in use or idle), and the host:ports they go to; nothing per URL stays once unused. */
    retained(): { urls: number; origins: number; connections: number } {
      const origins = new Set<string>();
      let connections = 0;
      for (const agent of Object.values(agents)) {
        for (const pool of [agent.sockets, agent.freeSockets]) {
          for (const [origin, sockets] of Object.entries(pool)) {
            origins.add(origin);
            connections += sockets?.length ?? 0;
          }
        }
        for (const origin of Object.keys(agent.requests)) origins.add(origin);
      }
      return { urls: targets.size, origins: origins.size, connections };
    },

    /** Closes every pooled connection. */
    close(): void {
      agents["http:"].destroy();
      agents["https:"].destroy();
    },
  };
}

export type WebhookClient = ReturnType<typeof createWebhookClient>;

import { Agent as HttpAgent, request as httpRequest, type ClientRequest, type IncomingMessage, type RequestOptions } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { urlToHttpOptions } from "node:url";

/** Why a request got no HTTP answer, in words a developer can act on. */
export function describeFailure(error: unknown, timeoutMs: number): string {
  const err = error as { name?: string; code?: string };
  if (err?.name === "TimeoutError") return `timeout: no response within ${timeoutMs} ms`;
  const code = err?.code;
  if (code === "ECONNREFUSED") return "connection refused";
  if (code === "ECONNRESET" || code === "EPIPE") return "connection reset";
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return "host not found";
  return code ? `network error (${code})` : "network error";
}

class TimeoutError extends Error {
  override name = "TimeoutError";
}

export interface PostOutcome {
  statusCode: number | null;
  error: string | null;
}

/**
 * POSTs webhook bodies over keep-alive connections, one pool per instance
 * (closed with it). node:http rather than fetch: an attempt costs a fraction
 * of fetch's, redirects are not followed (a 3xx is a failed attempt), and a
 * plain timer bounds each attempt.
 */
export function createWebhookClient(options: { maxSocketsPerHost: number }) {
  const agents = {
    "http:": new HttpAgent({ keepAlive: true, maxSockets: options.maxSocketsPerHost }),
    "https:": new HttpsAgent({ keepAlive: true, maxSockets: options.maxSocketsPerHost }),
  };
  /**
   * Each endpoint URL parsed once into request options: parsing it, and turning
   * a URL object into options, cost a third of building each request.
   */
  const targets = new Map<string, { send: typeof httpRequest; options: RequestOptions; host: string }>();
  function targetOf(url: string) {
    let target = targets.get(url);
    if (!target) {
      const parsed = new URL(url);
      const protocol = parsed.protocol as keyof typeof agents;
      // Another protocol gets no agent, and node:http refuses it as before (a failed attempt).
      target = {
        send: protocol === "https:" ? httpsRequest : httpRequest,
        options: { ...urlToHttpOptions(parsed), method: "POST", agent: agents[protocol] },
        host: parsed.host, // what node:http would send: the port only when it is not the default
      };
      targets.set(url, target);
    }
    return target;
  }

  return {
    /**
     * Resolves with the status once it arrives (the body is drained, unread), or
     * with why there was none. Rejects only when `stop` aborts it.
     */
    post(url: string, body: string, headers: Record<string, string>, timeoutMs: number, stop: AbortSignal): Promise<PostOutcome> {
      return new Promise((resolve, reject) => {
        let settled = false;
        let req: ClientRequest | undefined;
        const finish = (outcome: PostOutcome | Error) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          stop.removeEventListener("abort", onStop);
          if (outcome instanceof Error) reject(outcome);
          else resolve(outcome);
        };
        const onStop = () => {
          req?.destroy();
          finish(new Error("paysim is stopping"));
        };
        const timer = setTimeout(() => {
          req?.destroy();
          finish({ statusCode: null, error: describeFailure(new TimeoutError(), timeoutMs) });
        }, timeoutMs);
        if (stop.aborted) return onStop();
        stop.addEventListener("abort", onStop);
        try {
          const { send, options, host } = targetOf(url);
          // Headers as a flat list go straight into the request head; as an object each would be set,
          // and checked, one call at a time (with the Host header added): 7-14 µs more per attempt.
          // Endpoint URLs carry no credentials (refused on creation), so no Authorization is lost.
          const flat = ["Host", host];
          for (const name in headers) flat.push(name, headers[name]!);
          flat.push("Content-Length", String(Buffer.byteLength(body)));
          req = send({ ...options, headers: flat });
        } catch (error) {
          return finish({ statusCode: null, error: describeFailure(error, timeoutMs) });
        }
        req.on("response", (res: IncomingMessage) => {
          res.resume(); // drain, so that the connection can serve the next attempt
          finish({ statusCode: res.statusCode ?? null, error: null });
        });
        req.on("error", (error) => finish({ statusCode: null, error: describeFailure(error, timeoutMs) }));
        req.end(body);
      });
    },

    /** Closes every pooled connection. */
    close(): void {
      agents["http:"].destroy();
      agents["https:"].destroy();
    },
  };
}

export type WebhookClient = ReturnType<typeof createWebhookClient>;

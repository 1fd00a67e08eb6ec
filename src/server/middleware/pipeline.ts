import type { Context } from "hono";
import type { AppDeps, AppEnv } from "../env.js";
import { thrownResponse } from "../errors.js";
import { requestHostCheck } from "../guards/host.js";
import { keyCheck } from "../guards/key.js";
import { injectFault } from "./fault-injection.js";
import { logRequest } from "./request-log.js";

/** A route's handler, or the app's not-found answer: what the pipeline runs for a request. */
export type RouteHandler = (c: Context<AppEnv>) => Response | Promise<Response>;

/**
 * Reads what the log should know of a call that a fault answers before its handler runs (its key
 * and body, which the findings compare): the operation's own reading, without running it.
 */
export type SeenBeforeRunning = (c: Context<AppEnv>) => Promise<void>;

/** What the pipeline does before a handler: `keyed` adds the /v1 steps (the key, then the company's fault rules). */
export interface PipelineStep {
  keyed: boolean;
  /** For an operation that takes a key: asked only when a fault answers in its place. */
  seen?: SeenBeforeRunning;
}

/**
 * What every request goes through, wrapped around each route's handler (and the not-found
 * answer): its `req_…` id and `request.started`, the Host check (403), then on /v1 (`keyed`) the
 * key (401), which gives the route its company, and that company's fault rules (docs/faults.md),
 * which may take the request over; then the handler. The answer, a thrown error's included, is
 * held until what it may have seen is durable, then logged (`request.logged`), timed on `deps.timers`
 * (when it arrived and how long it took: what the findings time a client's retries by).
 *
 * A wrapper rather than Hono middleware: a route with one handler is dispatched by Hono without
 * its async composition, and a read answers in the turn it arrived in, with no promise at all.
 * The layers of middleware cost every request more than reading a payment intent does
 * (docs/performance.md, "Pay only for what is used").
 *
 * @example
 * const pipelined = requestPipeline(deps);
 * app.get("/health", pipelined(health, { keyed: false }));
 */
export function requestPipeline(
  deps: Pick<AppDeps, "ids" | "bus" | "store" | "loopbackHostNames" | "reportError" | "faults" | "heldRequests" | "instances" | "timers">,
) {
  const { ids, bus, store, reportError, faults, timers } = deps;
  const checkHost = requestHostCheck(deps.loopbackHostNames);
  const companyOfRequest = keyCheck(store, deps.instances.startedByAnother);

  /** The handler's answer, with what it throws answered as the app's onError would: a fault that holds an answer holds this one. */
  const answerOf = (c: Context<AppEnv>, handler: RouteHandler, requestId: string): Response | Promise<Response> => {
    try {
      const answer = handler(c);
      return answer instanceof Promise ? answer.catch((error: unknown) => thrownResponse(requestId, error, reportError)) : answer;
    } catch (error) {
      return thrownResponse(requestId, error, reportError);
    }
  };

  /** The /v1 steps: the key gives the route its company, whose fault rules may take the request over. */
  const keyedAnswer = (c: Context<AppEnv>, handler: RouteHandler, requestId: string, seen: SeenBeforeRunning | undefined): Response | Promise<Response> => {
    const company = companyOfRequest(c);
    c.set("company", company);
    const hit = faults.decide(company.id, c.req.method, c.req.path);
    return hit ? injectFault(c, () => answerOf(c, handler, requestId), hit, deps, seen) : answerOf(c, handler, requestId);
  };

  /** Logs `answer` once what it may have seen is durable: reads share the connection with the open group commit. */
  const logged = (c: Context<AppEnv>, answer: Response, started: number): Response | Promise<Response> => {
    const durable = store.whenOpenGroupDurable();
    if (durable) {
      return durable.then(() => {
        logRequest(c, bus, started, timers.now(), answer);
        return answer;
      });
    }
    logRequest(c, bus, started, timers.now(), answer);
    return answer;
  };

  return function pipelined(handler: RouteHandler, { keyed, seen }: PipelineStep): RouteHandler {
    return function throughPipeline(c) {
      const started = timers.now();
      const requestId = ids.newId("req");
      c.set("requestId", requestId);
      // Only the live view hears it: a run without one builds nothing for it.
      if (bus.listenerCount("request.started") > 0) bus.emit("request.started", { requestId });
      let answer: Response | Promise<Response>;
      try {
        checkHost(c);
        answer = keyed ? keyedAnswer(c, handler, requestId, seen) : answerOf(c, handler, requestId);
      } catch (error) {
        // The Host and key checks and a refusing fault throw: answered as the app's onError would.
        answer = thrownResponse(requestId, error, reportError);
      }
      if (!(answer instanceof Promise)) return logged(c, answer, started);
      // A fault that refuses the request (server_error, rate_limited) rejects: answered as thrown.
      return answer.catch((error: unknown) => thrownResponse(requestId, error, reportError)).then((done) => logged(c, done, started));
    };
  };
}

/** Whether a path is the /v1 API's, whose requests need a key (docs/api.md). */
export function isApiPath(path: string): boolean {
  return path === "/v1" || path.startsWith("/v1/");
}

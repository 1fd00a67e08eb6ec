import { createMiddleware } from "hono/factory";
import type { AppDeps, AppEnv } from "../env.js";
import { requestIdOf } from "../env.js";
import { thrownResponse } from "../errors.js";
import { requestHostCheck } from "../guards/host.js";
import { keyCheck } from "../guards/key.js";
import { injectFault } from "./fault-injection.js";
import { logRequest } from "./request-log.js";

/**
 * What every request goes through, as one middleware: its `req_…` id and `request.started`,
 * the Host check (403), then the route; its answer is held until what it may have seen is
 * durable, then logged (`request.logged`). One layer rather than one per step: every layer
 * of Hono's composition costs each request an async frame and a promise, which showed in
 * the read's profile (docs/performance.md, "Pay only for what is used").
 *
 * @example
 * app.use(requestPipeline(deps));
 */
export function requestPipeline(deps: Pick<AppDeps, "ids" | "bus" | "store" | "loopbackHostNames" | "reportError">) {
  const { ids, bus, store, reportError } = deps;
  const checkHost = requestHostCheck(deps.loopbackHostNames);
  return createMiddleware<AppEnv>(async function requestPipelineMiddleware(c, next) {
    const started = performance.now();
    const requestId = ids.newId("req");
    c.set("requestId", requestId);
    bus.emit("request.started", { requestId });
    try {
      checkHost(c);
      await next();
    } catch (error) {
      // Only the Host check throws here (what the route throws, Hono answers by onError): answered
      // as onError would, so that the refusal is logged like any other answer.
      c.res = thrownResponse(requestIdOf(c), error, reportError);
    }
    // Reads share the connection with the open group commit: an answer could otherwise show what a crash would lose.
    const durable = store.whenOpenGroupDurable();
    if (durable) await durable;
    logRequest(c, bus, started);
  });
}

/**
 * What every /v1 request goes through after `requestPipeline`: the key (401) gives the route its
 * company, then that company's fault rules (docs/faults.md) may take the request over. A request
 * no rule hits goes on to the route with no more than the rules' lookup.
 *
 * @example
 * app.use("/v1/*", apiPipeline(deps));
 */
export function apiPipeline(deps: Pick<AppDeps, "store" | "faults" | "heldRequests">) {
  const companyOfRequest = keyCheck(deps.store);
  return createMiddleware<AppEnv>(function apiPipelineMiddleware(c, next) {
    const company = companyOfRequest(c);
    c.set("company", company);
    const hit = deps.faults.decide(company.id, c.req.method, c.req.path);
    return hit ? injectFault(c, next, hit, deps) : next();
  });
}

import type { Context } from "hono";
import type { Bus, RequestFault } from "../../bus.js";
import { ApiError } from "../../domain/errors.js";
import { DEFAULT_RETRY_AFTER_SECONDS } from "../../domain/faults.js";
import type { FaultHit } from "../../resources/faults/service.js";
import type { Store } from "../../store/index.js";
import { companyOf, requestIdOf, type AppEnv } from "../env.js";
import type { HeldRequests } from "../held-requests.js";
import { closeWithoutAnswer, whenClientLeaves } from "../node-adapter.js";
import { loggedPath, routeOf } from "./request-log.js";

/** The faults that answer in the operation's place, without running it. */
const ANSWERS_IN_PLACE: ReadonlySet<FaultHit["fault"]> = new Set(["server_error", "rate_limited", "timeout"]);

/**
 * Carries out the fault rule that hit this request (docs/faults.md), on /v1 once the key is known
 * (the pipeline asks the key's company's rules; a request no rule hits never comes here). `run`
 * runs the request as usual and answers its answer, an error's included:
 *
 * - `server_error`, `rate_limited`: the error answer, and nothing else happens;
 * - `timeout`: no answer for the rule's wait, then the connection closes; nothing happens;
 * - `latency`: the request runs as usual, its answer held back for the wait;
 * - `lost_response`: the request runs as usual and, once its writes (object, events,
 *   idempotency record) are durable, the connection closes with no answer.
 *
 * A wait ends early when the client goes away or paysim stops: nobody is left to answer. The hit
 * is announced (`request.faulted`) before anything is held, so the run counts it even if it ends first.
 * A fault that answers in the operation's place (`server_error`, `rate_limited`, `timeout`) first
 * reads what the operation would have (`seen`: its key and body), for the findings: the client
 * cannot tell such an answer from the operation's own, and may retry it.
 *
 * @example
 * const hit = faults.decide(company.id, c.req.method, c.req.path);
 * return hit ? injectFault(c, () => handler(c), hit, { store, heldRequests, bus }) : handler(c);
 */
export async function injectFault(
  c: Context<AppEnv>,
  run: () => Response | Promise<Response>,
  hit: FaultHit,
  { store, heldRequests, bus }: { store: Store; heldRequests: HeldRequests; bus: Bus },
  seen?: (c: Context<AppEnv>) => Promise<void>,
): Promise<Response> {
  const unanswered = hit.fault === "lost_response" || hit.fault === "timeout";
  const fault: RequestFault = { ruleId: hit.ruleId, fault: hit.fault, unanswered };
  c.set("fault", fault);
  const route = routeOf(c);
  bus.emit("request.faulted", {
    requestId: requestIdOf(c),
    path: loggedPath(c.req.path),
    companyId: companyOf(c).id,
    ...(route && { route }),
    fault: hit.fault,
  });
  const injected = `Injected by fault ${hit.ruleId} (a fault rule; see GET /v1/sandbox/faults)`;
  // A client that gives up shows first as the half-close of its connection (http-listener.ts keeps it open): the hold ends then.
  const held = () => heldRequests.hold(hit.latencyMs!, (release) => whenClientLeaves(c, release));
  // A body or key the operation would refuse leaves nothing to compare: the fault answers all the same.
  const seeing = seen && ANSWERS_IN_PLACE.has(hit.fault) ? seen(c).catch(() => undefined) : undefined;
  switch (hit.fault) {
    case "server_error":
      await seeing;
      throw new ApiError("internal_error", `${injected}: paysim did nothing for this request.`);
    case "rate_limited":
      await seeing;
      throw new ApiError(
        "rate_limited",
        `${injected}: too many requests; retry after the Retry-After seconds.`,
        undefined,
        hit.retryAfterSeconds ?? DEFAULT_RETRY_AFTER_SECONDS,
      );
    case "timeout":
      // The wait starts once the body has been read, as the operation would have read it first.
      await seeing;
      await held();
      c.set("unansweredStatus", 0);
      return closeWithoutAnswer(c);
    case "latency": {
      const answer = await run();
      if (await held()) return answer;
      // Cut short (the client went away, paysim is stopping): the answer made was never sent.
      c.set("fault", { ...fault, unanswered: true });
      c.set("unansweredStatus", answer.status);
      return closeWithoutAnswer(c);
    }
    case "lost_response": {
      const answer = await run();
      const durable = store.whenOpenGroupDurable();
      if (durable) await durable;
      c.set("unansweredStatus", answer.status);
      return closeWithoutAnswer(c);
    }
  }
}

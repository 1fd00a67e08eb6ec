import { Hono } from "hono";
import { TrieRouter } from "hono/router/trie-router";
import { getPath } from "hono/utils/url";
import { ApiError } from "../domain/errors.js";
import { maskText } from "../domain/masking.js";
import { VERSION } from "../version.js";
import { requestIdOf, type AppDeps, type AppEnv, type RequestScope } from "./env.js";
import { errorResponse, thrownResponse } from "./errors.js";
import { hostGuard } from "./guards/host.js";
import { keyGuard } from "./guards/key.js";
import { headerOf } from "./header.js";
import { carriesRequestId, resourceResponse } from "./respond.js";
import { createTurnEnd } from "./turn-end.js";
import { checkoutRoutes } from "./routes/checkout.js";
import { eventRoutes } from "./routes/events.js";
import { paymentIntentRoutes } from "./routes/payment-intents.js";
import { payoutRoutes } from "./routes/payouts.js";
import { sandboxRoutes } from "./routes/sandbox.js";
import { webhookEndpointRoutes } from "./routes/webhook-endpoints.js";

/** What @hono/node-server passes a fetch handler besides the request. */
type NodeBindings = Omit<RequestScope, "requestId" | "company">;

export interface PaysimApp {
  fetch(request: Request, env?: NodeBindings): Promise<Response>;
}

/**
 * The whole HTTP surface: a pipeline, then the routes. The pipeline gives the
 * SPEC §2 precedence: request id → Host (403) → key on every /v1 path (401) →
 * route (404/405) → handlers.
 *
 * The pipeline is one plain function in front of Hono rather than Hono
 * middleware: a route with no middleware is dispatched without Hono's async
 * composition, whose layers cost every request more than reading a payment
 * intent does (measured in docs/performance.md).
 */
export function createApp(deps: AppDeps): PaysimApp {
  const routes = createRoutes(deps);
  const checkHost = hostGuard(deps.loopbackHostNames);
  const companyOfKey = keyGuard(deps.store);
  const { bus, store, ids, reportError } = deps;
  const atTurnEnd = createTurnEnd();

  /**
   * Holds an answer until what it may have seen is durable (reads share the
   * connection with the open group commit), and at least until the end of this
   * turn of the event loop, so that answers leave together; then logs it.
   */
  function answered(request: Request, path: string, requestId: string, started: number, response: Response): Promise<Response> {
    const durable = store.whenOpenGroupDurable();
    const log = () => logged(request, path, requestId, started, response);
    return durable ? durable.then(log) : atTurnEnd(log);
  }

  function logged(request: Request, path: string, requestId: string, started: number, response: Response): Response {
    // Reading response.headers turns a plain-object Response into a Headers one: only when needed.
    if (!carriesRequestId(response)) response.headers.set("Request-Id", requestId);
    bus.emit("request.logged", {
      requestId,
      method: request.method,
      path: maskText(path),
      status: response.status,
      durationMs: performance.now() - started,
    });
    return response;
  }

  return {
    fetch(request, env = {}) {
      const started = performance.now();
      const requestId = ids.newId("req");
      const path = getPath(request);
      let response: Response | Promise<Response>;
      try {
        checkHost(headerOf(request, env, "host"), env.incoming?.url);
        const scope = env as RequestScope;
        scope.requestId = requestId;
        if (path === "/v1" || path.startsWith("/v1/")) scope.company = companyOfKey(headerOf(request, env, "authorization"));
        response = routes.fetch(request, scope);
      } catch (error) {
        response = thrownResponse(requestId, error, reportError);
      }
      if (response instanceof Promise) return response.then((done) => answered(request, path, requestId, started, done));
      return answered(request, path, requestId, started, response);
    },
  };
}

/** The routes, reached only through createApp's pipeline. */
function createRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.get("/health", (c) => resourceResponse(c, { status: "ok", version: VERSION }));
  app.route("/v1/payment_intents", paymentIntentRoutes(deps));
  app.route("/v1/payouts", payoutRoutes(deps));
  app.route("/v1/events", eventRoutes(deps));
  app.route("/v1/webhook_endpoints", webhookEndpointRoutes(deps));
  app.route("/v1/sandbox", sandboxRoutes(deps));
  app.route("/checkout", checkoutRoutes(deps));

  const allowedMethods = methodsByPath(app);
  app.notFound((c) => {
    const methods = allowedMethods(c.req.path);
    if (methods.length > 0 && !methods.includes(c.req.method)) {
      return errorResponse(
        requestIdOf(c),
        new ApiError("method_not_allowed", `${c.req.method} is not allowed on ${c.req.path}; use ${methods.join(", ")}.`),
        { Allow: methods.join(", ") },
      );
    }
    return errorResponse(requestIdOf(c), new ApiError("not_found", `No route ${c.req.method} ${c.req.path}. The /v1 endpoints are listed in docs/api.md.`));
  });

  app.onError((error, c) => thrownResponse(c.env.requestId, error, deps.reportError));

  return app;
}

/**
 * The methods some route answers on a path (GET bringing HEAD), for a 405's
 * Allow header. Built on first use, when every route is in place. Catch-all
 * routes (`app.all`, such as the checkout's own not-found page) are left out:
 * they answer every method themselves.
 */
function methodsByPath(app: Hono<AppEnv>): (path: string) => string[] {
  let router: TrieRouter<string[]> | undefined;
  const build = () => {
    const byPath = new Map<string, Set<string>>();
    for (const route of app.routes) {
      if (route.method === "ALL" || route.method === "HEAD") continue;
      const methods = byPath.get(route.path) ?? new Set<string>();
      methods.add(route.method);
      if (route.method === "GET") methods.add("HEAD");
      byPath.set(route.path, methods);
    }
    const built = new TrieRouter<string[]>();
    for (const [path, methods] of byPath) built.add("ALL", path, [...methods]);
    return built;
  };
  return (path) => {
    router ??= build();
    const methods = new Set<string>();
    for (const [allowed] of router.match("ALL", path)[0]) for (const method of allowed) methods.add(method);
    return [...methods];
  };
}

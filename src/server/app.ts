import { Hono } from "hono";
import { TrieRouter } from "hono/router/trie-router";
import { ApiError } from "../domain/errors.js";
import { VERSION } from "../version.js";
import { requestIdOf, type AppDeps, type AppEnv } from "./env.js";
import { errorResponse, thrownResponse } from "./errors.js";
import { hostGuard } from "./guards/host.js";
import { apiKeyAuth } from "./guards/key.js";
import { durableAnswers } from "./middleware/durable-answers.js";
import { requestLog } from "./middleware/request-log.js";
import { resourceResponse } from "./respond.js";
import { checkoutRoutes } from "./routes/checkout.js";
import { dashboardRoutes } from "./dashboard/index.js";
import { eventRoutes } from "./routes/events.js";
import { paymentIntentRoutes } from "./routes/payment-intents.js";
import { payoutRoutes } from "./routes/payouts.js";
import { sandboxRoutes } from "./routes/sandbox.js";
import { webhookEndpointRoutes } from "./routes/webhook-endpoints.js";

export type PaysimApp = Hono<AppEnv>;

/**
 * The whole HTTP surface as one Hono app, the same under @hono/node-server
 * (through node-adapter.ts) and `app.request()`. Its middleware gives the
 * SPEC §2 precedence: request id and log → durable answers → Host (403) → key
 * on every /v1 path (401) → route (404/405) → the route's own body (413/400)
 * and Idempotency-Key (400) middleware → handler. Anything thrown on the way is
 * answered by the one `onError`.
 */
export function createApp(deps: AppDeps): PaysimApp {
  const app = new Hono<AppEnv>();

  app.use(requestLog(deps));
  app.use(durableAnswers(deps.store));
  app.use(hostGuard(deps.loopbackHostNames));
  app.use("/v1/*", apiKeyAuth(deps.store));

  app.get("/health", (c) => resourceResponse(c, { status: "ok", version: VERSION }));
  app.route("/v1/payment_intents", paymentIntentRoutes(deps));
  app.route("/v1/payouts", payoutRoutes(deps));
  app.route("/v1/events", eventRoutes(deps));
  app.route("/v1/webhook_endpoints", webhookEndpointRoutes(deps));
  app.route("/v1/sandbox", sandboxRoutes(deps));
  app.route("/checkout", checkoutRoutes(deps));
  app.route("/dashboard", dashboardRoutes(deps));

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

  app.onError((error, c) => thrownResponse(requestIdOf(c), error, deps.reportError));

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

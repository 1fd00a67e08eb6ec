import { Hono } from "hono";
import { methodNotAllowed } from "hono/method-not-allowed";
import { ApiError } from "../domain/errors.js";
import { VERSION } from "../version.js";
import type { AppDeps, AppEnv } from "./env.js";
import { errorResponse } from "./errors.js";
import { auth } from "./middleware/auth.js";
import { hostGuard } from "./middleware/host-guard.js";
import { requestId } from "./middleware/request-id.js";
import { ok } from "./respond.js";
import { checkoutRoutes } from "./routes/checkout.js";
import { eventRoutes } from "./routes/events.js";
import { paymentIntentRoutes } from "./routes/payment-intents.js";
import { payoutRoutes } from "./routes/payouts.js";
import { sandboxRoutes } from "./routes/sandbox.js";
import { webhookEndpointRoutes } from "./routes/webhook-endpoints.js";

/**
 * The whole HTTP surface. Middleware order gives the SPEC §2 precedence:
 * request id → Host (403) → key on every /v1 path (401) → route (404/405) → handlers.
 */
export function createApp(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.use("*", requestId(deps.bus, deps.store.settled));
  app.use("*", hostGuard(deps.loopbackOnly));
  app.use(
    "*",
    methodNotAllowed({
      app,
      onMethodNotAllowed: (c, methods) =>
        errorResponse(
          c,
          new ApiError("method_not_allowed", `${c.req.method} is not allowed on ${c.req.path}; use ${methods.join(", ")}.`),
          { Allow: methods.join(", ") },
        ),
    }),
  );
  app.use("/v1/*", auth(deps.store));

  app.get("/health", (c) => ok(c, { status: "ok", version: VERSION }));
  app.route("/v1/payment_intents", paymentIntentRoutes(deps));
  app.route("/v1/payouts", payoutRoutes(deps));
  app.route("/v1/events", eventRoutes(deps));
  app.route("/v1/webhook_endpoints", webhookEndpointRoutes(deps));
  app.route("/v1/sandbox", sandboxRoutes(deps));
  app.route("/checkout", checkoutRoutes(deps));

  app.notFound((c) => errorResponse(c, new ApiError("not_found", `No route ${c.req.method} ${c.req.path}. See the README for the /v1 endpoints.`)));

  app.onError((error, c) => {
    if (error instanceof ApiError) return errorResponse(c, error);
    deps.reportError(c.get("requestId"), error);
    return errorResponse(c, new ApiError("internal_error", `Something went wrong inside paysim; the log has details under request ${c.get("requestId")}.`));
  });

  return app;
}

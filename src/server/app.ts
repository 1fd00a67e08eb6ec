import { timingSafeEqual } from "node:crypto";
import { Hono, type Context } from "hono";
import { TrieRouter } from "hono/router/trie-router";
import { ApiError } from "../domain/errors.js";
import { VERSION } from "../version.js";
import { INSTANCE_TOKEN_HEADER } from "../shared/instance-token.js";
import { requestIdOf, type AppDeps, type AppEnv } from "./env.js";
import { errorResponse, thrownResponse } from "./errors.js";
import { isApiPath, requestPipeline, type RouteHandler } from "./middleware/pipeline.js";
import { handOver } from "./node-adapter.js";
import { openApiRoute } from "./openapi/route.js";
import { OPENAPI_OPERATION } from "./openapi/document-operation.js";
import type { OperationDoc } from "./operations/define.js";
import { mountOperations } from "./operations/mount.js";
import { namedSchemas, servedOperations } from "./operations/index.js";
import { resourceResponse } from "./respond.js";
import { coverageCatalogue } from "./coverage-catalogue.js";
import type { ServedModule } from "./operations/served-module.js";
import type { CoverageCatalogue } from "../services/coverage.js";

export type PaysimApp = Hono<AppEnv>;

/** Each app's coverage catalogue, built from its mounted operations on the first report asked. */
const catalogues = new WeakMap<PaysimApp, () => CoverageCatalogue>();

/** The coverage catalogue of `app` (docs/testing.md, "Coverage"): what its reports cover. */
export function catalogueOf(app: PaysimApp): CoverageCatalogue {
  return catalogues.get(app)!();
}

/**
 * The whole HTTP surface as one Hono app, the same under @hono/node-server
 * (through node-adapter.ts) and `app.request()`. Every route's handler, and the not-found answer,
 * is wrapped in the request pipeline (`requestPipeline`), which gives the error precedence of
 * docs/api.md: request id and log, durable answers, Host (403) → key on every /v1 path (401) →
 * the key's company's fault rules (docs/faults.md) → route (404/405) → the operation's own body
 * (413/400) and Idempotency-Key (400) → the operation. Anything thrown on the way is answered as
 * the one `onError` answers it. Each /v1 operation is one definition (operations/): mounted as its route, and
 * described by the OpenAPI document (GET /v1/openapi.json, no key). The checkout pages and the
 * dashboard are loaded on the first request for either (`onDemand`, html-routes.ts). `modules` are the
 * resources, each in its folder (resources/): their operations, schemas and pages are what it
 * serves beside the sandbox's own controls.
 */
export function createApp(deps: AppDeps, modules: readonly ServedModule[]): PaysimApp {
  const app = new Hono<AppEnv>();
  let catalogue: CoverageCatalogue | undefined;
  // Built once asked: by then every module is mounted.
  const catalogueNow = () => (catalogue ??= coverageCatalogue(documented));
  const served = servedOperations(catalogueNow, modules);
  const documented: readonly OperationDoc[] = [OPENAPI_OPERATION, ...served];
  catalogues.set(app, catalogueNow);

  const pipelined = requestPipeline(deps);
  // The one /v1 route without the key check: the document answers without one (docs/api.md).
  app.get(OPENAPI_OPERATION.path, pipelined(openApiRoute(documented, namedSchemas(modules), deps.baseUrl), { keyed: false }));
  app.get("/health", pipelined(healthRoute(deps.instanceToken), { keyed: false }));
  mountOperations(app, deps, served, (handler, seen) => pipelined(handler, { keyed: true, seen }));

  const allowedMethods = methodsByPath(app);
  const notFound = (c: Context<AppEnv>) => {
    const methods = allowedMethods(c.req.path);
    if (methods.length > 0 && !methods.includes(c.req.method)) {
      return errorResponse(requestIdOf(c), new ApiError("method_not_allowed", `${c.req.method} is not allowed on ${c.req.path}; use ${methods.join(", ")}.`), {
        Allow: methods.join(", "),
      });
    }
    return errorResponse(requestIdOf(c), new ApiError("not_found", `No route ${c.req.method} ${c.req.path}. The /v1 endpoints are listed in docs/api.md.`));
  };
  // On /v1 the key is checked first: an unknown route or method is a 401 to a caller without one.
  const notFoundOnApi = pipelined(notFound, { keyed: true });
  const notFoundElsewhere = pipelined(notFound, { keyed: false });
  app.notFound((c) => (isApiPath(c.req.path) ? notFoundOnApi(c) : notFoundElsewhere(c)));
  const page = (handler: RouteHandler) => pipelined(handler, { keyed: false });
  onDemand(app, "/checkout", notFound, page, async () => (await import("./html-routes.js")).checkoutRoutes(deps));
  onDemand(app, "/dashboard", notFound, page, async () => (await import("./html-routes.js")).dashboardRoutes(deps, catalogueNow, modules));

  app.onError((error, c) => thrownResponse(requestIdOf(c), error, deps.reportError));

  return app;
}

/**
 * `GET /health`: `{"status": "ok", "version"}`, and the serving process's pid to a caller that
 * names this instance's token (`paysim stop` proving an entry's pid before signalling it). The
 * token grants nothing else; without it nobody learns the pid.
 */
function healthRoute(instanceToken: string | undefined): RouteHandler {
  const plain: RouteHandler = (c) => resourceResponse(c, { status: "ok", version: VERSION });
  if (instanceToken === undefined) return plain;
  const expected = Buffer.from(instanceToken);
  const named = (given: string | undefined) => {
    const bytes = Buffer.from(given ?? "");
    return bytes.length === expected.length && timingSafeEqual(bytes, expected);
  };
  return (c) => (named(c.req.header(INSTANCE_TOKEN_HEADER)) ? resourceResponse(c, { status: "ok", version: VERSION, pid: process.pid }) : plain(c));
}

/**
 * Serves everything under `prefix` with the app `load` makes, loaded and made on the first
 * request there: a run that never opens a page pays nothing at start for its code. Mounted as one
 * route rather than merged into the app's router, its routes leave the router of every other
 * request as it was: merged, the dashboard's `/dashboard/:scope/*` beside `/dashboard/login/:token`
 * made Hono give up its RegExpRouter for the slower TrieRouter on every request
 * (docs/performance.md, "Pay only for what is used"). Its requests go through the pipeline
 * (`pipelined`) and keep their id there; what it throws is answered as the app's onError answers
 * it, a path it does not route by `notFound`.
 */
function onDemand<E extends AppEnv>(
  app: PaysimApp,
  prefix: string,
  notFound: (c: Context<AppEnv>) => Response,
  pipelined: (handler: RouteHandler) => RouteHandler,
  load: () => Promise<Hono<E>>,
): void {
  const outer = new WeakMap<Request, Context<AppEnv>>();
  let served: Promise<Hono<E>> | undefined;
  const serve = async () => {
    const root = new Hono<E>();
    root.use(async (c, next) => {
      c.set("requestId", requestIdOf(outer.get(c.req.raw)!));
      await next();
    });
    root.route(prefix, await load());
    root.notFound((c) => notFound(outer.get(c.req.raw)!));
    root.onError((error) => {
      throw error;
    });
    return root;
  };
  const handler = async (c: Context<AppEnv>) => {
    served ??= serve();
    const routes = await served;
    outer.set(c.req.raw, c);
    return handOver(routes, c);
  };
  app.all(prefix, pipelined(handler));
  app.all(`${prefix}/*`, pipelined(handler));
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

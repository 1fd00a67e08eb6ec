import type { Context } from "hono";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Bus, RequestFault } from "../bus.js";
import type { TestCard } from "../domain/test-cards.js";
import type { Ids } from "../domain/ids.js";
import type { Clock } from "../runtime/clock.js";
import type { Timers } from "../runtime/timers.js";
import type { Coverage } from "../services/coverage.js";
import type { DeliveryView } from "../resources/deliveries/service.js";
import type { RunIdempotently } from "../services/idempotency.js";
import type { InstanceRegistry } from "../resources/instances/service.js";
import type { Services } from "../services/index.js";
import type { UnitOfWork } from "../services/unit-of-work.js";
import type { Store } from "../store/index.js";
import type { StoredEvent } from "../resources/events/store.js";
import type { Company } from "../resources/companies/store.js";
import type { HeldRequests } from "./held-requests.js";
import type { DashboardAuth } from "./dashboard/auth.js";

/**
 * What the HTTP layer is built from; createPaysim assembles it. Every service (services/index.ts) is
 * one of its members: the payment intents and payouts, the events (listed, read with their
 * deliveries, resent), the webhook endpoints, the sandbox's clock and reset, and the fault rules
 * (docs/faults.md) that the sandbox routes change and the request pipeline asks.
 */
export interface AppDeps extends Services {
  store: Store;
  clock: Clock;
  bus: Bus;
  /** Makes the requests' ids and the ids and secrets of the endpoints created through the API. */
  ids: Ids;
  unitOfWork: UnitOfWork;
  /** Runs a state-changing call through the idempotency layer. */
  runIdempotently: RunIdempotently;
  testCards: readonly TestCard[];
  /** The Host names served while listening on loopback (DNS-rebinding defence); undefined: any. */
  loopbackHostNames: ReadonlySet<string> | undefined;
  /** Absolute base URL of this instance, known once it listens. */
  baseUrl: () => string;
  /** The waits of `timeout` and `latency` faults, which a stopping paysim cuts short. */
  heldRequests: HeldRequests;
  /** The waits for events and deliveries, for the HTTP waits of /v1/sandbox (operations/waits.ts). */
  waits: CompanyWaits;
  /** The dashboard's sessions and one-time sign-in links (docs/dashboard.md), in memory. */
  dashboardAuth: DashboardAuth;
  /** The whole paysims this one started (POST /v1/sandbox/instances), held in memory. */
  instances: InstanceRegistry;
  /** What each company's use went through, counted from the bus (docs/testing.md, "Coverage"). */
  coverage: Coverage;
  /** The real time requests are timed on (when each arrived, how long it took): Node's, or a test's. */
  timers: Timers;
  /** Where unexpected errors are reported (with their request id). */
  reportError: (requestId: string, error: unknown) => void;
  /** Each resource's service, by collection (operations/served-module.ts's `serviceOf`): its module's own, or the one it shares. */
  resourceServices: ReadonlyMap<string, unknown>;
  /** The token `paysim start` keeps in its instance files; /health answers the pid to a caller that names it. */
  instanceToken?: string;
}

/** Which events a wait over HTTP looks for: every field given must match (docs/testing.md). */
export interface WaitFilter {
  type?: readonly string[];
  objectId?: string;
}

/** Which deliveries a wait over HTTP looks for. */
export interface WebhookWaitFilter extends WaitFilter {
  url?: string;
  status?: "succeeded" | "failed" | "attempted";
  attempt?: number;
  chaos?: "duplicate" | "reordered" | "delayed";
  resent?: boolean;
}

/** How a wait over HTTP runs: its filter as messages name it, its timeout, and what ends it early. */
export interface WaitRun {
  described: string;
  timeoutMs: number;
  signal: AbortSignal;
}

/**
 * The port of the HTTP waits, filled by the wiring with the waits of startPaysim(): one company's,
 * the first match before or after the call. Each rejects with an ApiError (`wait_timeout`,
 * `shutting_down`), or with the signal's reason once it aborts.
 */
export interface CompanyWaits {
  event(companyId: string, filter: WaitFilter, run: WaitRun): Promise<StoredEvent>;
  webhook(companyId: string, filter: WebhookWaitFilter, run: WaitRun): Promise<{ event: StoredEvent; delivery: DeliveryView }>;
}

/**
 * What @hono/node-server binds to the context's env when it serves the app: the Node
 * request and response. Absent under `app.request()`. Only node-adapter.ts reads them.
 */
export interface NodeBindings {
  incoming?: IncomingMessage;
  outgoing?: ServerResponse;
}

/** What the request pipeline learnt of a request, for the routes (`c.get`). */
export interface RequestVariables {
  /** This request's `req_…` id (middleware/pipeline.ts). */
  requestId: string;
  /** The company of the request's key, on every /v1 path (guards/key.ts). */
  company: Company;
  /** The fault that hit this request, if one did (middleware/fault-injection.ts). */
  fault: RequestFault | undefined;
  /** For a request a fault left unanswered: the status withheld, 0 when none was made (middleware/fault-injection.ts). */
  unansweredStatus: number | undefined;
  /** The operation's call, once its route took it (operations/mount.ts): the log reads its key and body's fingerprint. */
  call: LoggedCall | undefined;
}

/** What the request log reads of an operation's call (operations/run.ts, `IncomingCall`): digests only, never the key itself. */
export interface LoggedCall {
  /** The body as read and masked; undefined for an operation without one. */
  rawBody: Readonly<Record<string, unknown>> | undefined;
  /** Set once the idempotency layer has seen the call; its digests once made. */
  idempotent?: { fingerprint?: string; keyDigest?: string };
}

export interface AppEnv {
  Bindings: NodeBindings;
  Variables: RequestVariables;
}

/** This request's `req_…` id. */
export function requestIdOf(c: Context<AppEnv>): string {
  return c.get("requestId");
}

/** The company of this /v1 request's key. */
export function companyOf(c: Context<AppEnv>): Company {
  return c.get("company");
}

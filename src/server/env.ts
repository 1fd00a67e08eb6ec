import type { Context } from "hono";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Bus } from "../bus.js";
import type { TestCard } from "../domain/test-cards.js";
import type { Ids } from "../domain/ids.js";
import type { Clock } from "../runtime/clock.js";
import type { RunIdempotently } from "../services/idempotency.js";
import type { PaymentIntentService } from "../services/payment-intents.js";
import type { PayoutService } from "../services/payouts.js";
import type { UnitOfWork } from "../services/unit-of-work.js";
import type { Store } from "../store/index.js";
import type { Company } from "../store/repos/companies.js";
import type { Outbox } from "../webhooks/outbox.js";

/** What the HTTP layer is built from; createPaysim assembles it. */
export interface AppDeps {
  store: Store;
  clock: Clock;
  bus: Bus;
  /** Makes the requests' ids. */
  ids: Ids;
  unitOfWork: UnitOfWork;
  /** Runs a state-changing call through the idempotency layer. */
  runIdempotently: RunIdempotently;
  paymentIntents: PaymentIntentService;
  payouts: PayoutService;
  outbox: Outbox;
  testCards: readonly TestCard[];
  /** The Host names served while listening on loopback (DNS-rebinding defence); undefined: any. */
  loopbackHostNames: ReadonlySet<string> | undefined;
  /** Absolute base URL of this instance, known once it listens. */
  baseUrl: () => string;
  /** Moves the clock forward and does all work that falls due before resolving. */
  advanceClock: (seconds: number) => Promise<void>;
  /** Where unexpected errors are reported (with their request id). */
  reportError: (requestId: string, error: unknown) => void;
}

/**
 * What the pipeline in front of the routes learnt of a request (Hono's `c.env`):
 * @hono/node-server's Node objects, the request's id and, on every /v1 path, its
 * key's company. The routes are reached only through that pipeline.
 */
export interface RequestScope {
  incoming?: IncomingMessage;
  outgoing?: ServerResponse;
  requestId: string;
  company: Company;
}

export interface AppEnv {
  Bindings: RequestScope;
}

/** The Node request behind a web Request, when @hono/node-server serves it (not under app.request in tests). */
export function incomingOf(env: unknown): IncomingMessage | undefined {
  return (env as Partial<RequestScope> | undefined)?.incoming;
}

/** This request's `req_…` id. */
export function requestIdOf(c: Context): string {
  return (c.env as RequestScope).requestId;
}

/** The company of this /v1 request's key. */
export function companyOf(c: Context): Company {
  return (c.env as RequestScope).company;
}

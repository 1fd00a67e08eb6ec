import { serve, type ServerType } from "@hono/node-server";
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { Bus } from "./bus.js";
import { createIds } from "./domain/ids.js";
import { loopbackHostNames } from "./domain/loopback.js";
import { ConfigError, loadConfigFile, parseConfig, startInputProblem, type PaysimConfig } from "./config.js";
import { loadTestCards, loadTestDestinations } from "./fixture-data.js";
import { ClockRangeError, createClock, isTimeScale, parseStoredClockMs, TIME_SCALE_RANGE, type Clock } from "./runtime/clock.js";
import { createScheduler, type Scheduler } from "./runtime/scheduler.js";
import { createApp, type PaysimApp } from "./server/app.js";
import { serveOnNode, type NodeFetch } from "./server/node-adapter.js";
import { createPayoutService } from "./services/payouts.js";
import { createPayoutSimulator, type PayoutMode, type PayoutSimulator } from "./sim/payout-simulator.js";
import { bootstrap, type BootstrappedCompany } from "./services/bootstrap.js";
import { createIdempotentRunner } from "./services/idempotency.js";
import { createPaymentIntentService } from "./services/payment-intents.js";
import { createUnitOfWork, type Work } from "./services/unit-of-work.js";
import { createStore, type Store } from "./store/index.js";
import { MIGRATIONS } from "./store/migrations/index.js";
import { openDatabase, UnusableDatabaseError } from "./store/open.js";
import type { WebhookEndpointRow } from "./store/repos/webhook-endpoints.js";
import { createDispatcher } from "./webhooks/dispatcher.js";
import { createOutbox, type Outbox } from "./webhooks/outbox.js";

export interface PaysimOptions {
  /** TCP port; 0 picks a free one. */
  port?: number;
  host?: string;
  /** SQLite file, or ":memory:". */
  db?: string;
  /** The default company's secret key; generated when absent. */
  secretKey?: string;
  /** A key an earlier start generated (`paysim start` reads it from instance.json); reused when no key is given. */
  rememberedSecretKey?: string;
  /** A config file path, or the config itself. */
  config?: string | PaysimConfig;
  forwardTo?: string | readonly string[];
  webhookSecret?: string;
  /** How many times faster than real time the clock runs: greater than 0, at most MAX_TIME_SCALE. Default 1. */
  timeScale?: number;
  /** `auto` (default): payouts move by their token's outcome on the clock; `manual`: only when told. */
  payouts?: PayoutMode;
  /** How long a webhook receiver has to answer, in ms (default 20 000). */
  webhookTimeout?: number;
  /**
   * The source of real time the clock scales. For paysim's own tests, which
   * replay a restart with time passed while paysim was down; leave it unset.
   */
  realNow?: () => number;
  /** Called with the request id of an unexpected error (a bug) and the error. */
  onInternalError?: (requestId: string, error: unknown) => void;
  /**
   * Called once the bus exists, before the server listens and before jobs that fell due while
   * paysim was down run: a listener attached here hears everything this start announces.
   */
  onBusReady?: (instance: Pick<PaysimInstance, "bus" | "clock">) => void;
}

export interface PaysimInstance {
  url: string;
  port: number;
  host: string;
  /** The default company's key. */
  secretKey: string;
  /** Whether this start generated `secretKey`. */
  generatedKey: boolean;
  /** Every declared company with its key (when known) and endpoints; the default first. */
  companies: BootstrappedCompany[];
  /** The --forward-to endpoints, in the order given. */
  forwardEndpoints: WebhookEndpointRow[];
  clock: Clock;
  bus: Bus;
  store: Store;
  scheduler: Scheduler<Work>;
  /**
   * The HTTP surface as a Hono app, the one the server serves: `app.request()`
   * calls it without a socket (the Host rule then reads the URL's authority).
   */
  app: PaysimApp;
  /**
   * What the webhook client holds for receivers right now: URLs with attempts in
   * flight, and the host:ports and connections its pool keeps (idle ones close
   * on their own). Nothing stays for a URL or host:port no longer delivered to.
   */
  webhookConnections(): { urls: number; origins: number; connections: number };
  /** Moves the clock and does all due work before resolving. */
  advanceClock(seconds: number): Promise<void>;
  /** Stops listening, then closes the database. Safe to call twice. */
  close(): Promise<void>;
}

const CLOCK_OFFSET = "clock_offset_ms";
const CLOCK_HIGH_WATER = "clock_high_water_ms";

/**
 * Builds one paysim instance: database, clock, bus, services, HTTP server.
 * The one way to make an instance, used by `paysim start` and `startPaysim()`.
 */
export async function createPaysim(options: PaysimOptions = {}): Promise<PaysimInstance> {
  const host = options.host ?? "127.0.0.1";
  const forwardTo = options.forwardTo === undefined ? [] : typeof options.forwardTo === "string" ? [options.forwardTo] : options.forwardTo;
  // Bad options and a bad config are refused before the database is even opened.
  const problem = startInputProblem({ secretKey: options.secretKey, webhookSecret: options.webhookSecret, forwardTo });
  if (problem) throw new ConfigError(`${problem.input}${problem.url === undefined ? "" : ` ${JSON.stringify(problem.url)}`} ${problem.rule}.`);
  const config =
    typeof options.config === "string" ? loadConfigFile(options.config) : options.config === undefined ? undefined : parseConfig(options.config, "(options.config)");
  const timeScale = options.timeScale ?? 1;
  if (!isTimeScale(timeScale)) throw new ClockRangeError(`timeScale must be ${TIME_SCALE_RANGE}; got ${String(timeScale)}.`);
  const dbPath = options.db ?? ":memory:";
  let restored = { offsetMs: 0, notBeforeMs: 0 };
  // The stored clock is checked before the database changes at all: one out of range is refused, untouched.
  const db = openDatabase(dbPath, MIGRATIONS, { checkStoredMeta: (meta) => void (restored = restoreClock(dbPath, meta)) });
  try {
    const store = createStore(db);
    const clock = createClock({ timeScale, realNow: options.realNow, ...restored });

    const bus = new Bus();
    const testCards = loadTestCards();
    let baseUrl = "";
    let outbox: Outbox | undefined;
    const ids = createIds();
    const unitOfWork = createUnitOfWork(store, bus, clock, () => outbox?.enqueue, ids);
    const runIdempotently = createIdempotentRunner(store, clock, unitOfWork);
    const paymentIntents = createPaymentIntentService({ store, clock, testCards, baseUrl: () => baseUrl, ids });
    const reportError = options.onInternalError ?? ((requestId, error) => console.error(`paysim: internal error in ${requestId}:`, error));
    const scheduler = createScheduler({
      store,
      clock,
      run: unitOfWork,
      onError: (job, error) => reportError(`job ${job.kind} ${job.subject_id}`, error),
    });
    outbox = createOutbox({ store, clock, scheduler, bus });
    const dispatcher = createDispatcher({ store, clock, scheduler, bus, timeoutMs: options.webhookTimeout });
    // After the outbox exists: the endpoints an earlier --forward-to made and this start drops stop their deliveries.
    const boot = bootstrap(store, clock, {
      config,
      secretKey: options.secretKey,
      rememberedSecretKey: options.rememberedSecretKey,
      forwardTo,
      webhookSecret: options.webhookSecret,
      onEndpointRemoved: (endpointId) => outbox!.stopForEndpoint(endpointId),
    });
    let simulator: PayoutSimulator | undefined;
    const payouts = createPayoutService({ store, clock, ids, destinations: loadTestDestinations(), planner: () => simulator! });
    simulator = createPayoutSimulator({
      scheduler,
      mode: options.payouts ?? "auto",
      destinations: loadTestDestinations(),
      move: payouts.moveAutomatically,
    });

    const saveClock = () => {
      store.meta.set(CLOCK_OFFSET, String(clock.offsetSeconds() * 1000));
      store.meta.set(CLOCK_HIGH_WATER, String(clock.now()));
    };
    const advanceClock = async (seconds: number) => {
      clock.advance(seconds);
      store.transaction(saveClock);
      scheduler.drain();
    };

    const app = createApp({
      store,
      clock,
      bus,
      ids,
      unitOfWork,
      runIdempotently,
      paymentIntents,
      payouts,
      outbox,
      testCards,
      loopbackHostNames: loopbackHostNames(host),
      baseUrl: () => baseUrl,
      advanceClock,
      reportError,
    });

    options.onBusReady?.({ bus, clock });
    const server = await listen(serveOnNode(app), options.port ?? 0, host);
    const port = (server.address() as AddressInfo).port;
    const urlHost = host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
    baseUrl = `http://${urlHost}:${port}`;
    dispatcher.recover();
    scheduler.start();

    let closing: Promise<void> | undefined;
    return {
      url: baseUrl,
      port,
      host,
      secretKey: boot.companies[0]!.secretKey!,
      generatedKey: boot.generatedKey,
      companies: boot.companies,
      forwardEndpoints: boot.forwardEndpoints,
      clock,
      bus,
      store,
      scheduler,
      app,
      webhookConnections: () => dispatcher.retained(),
      advanceClock,
      close() {
        closing ??= (async () => {
          await new Promise<void>((resolve) => {
            (server as Server).close(() => resolve());
            (server as Server).closeAllConnections?.();
          });
          await scheduler.stop();
          dispatcher.close();
          if (db.open) {
            store.transaction(saveClock);
            db.close();
          }
        })();
        return closing;
      },
    };
  } catch (error) {
    if (db.open) db.close();
    throw error;
  }
}

/** The clock an earlier run left in the database; a value out of range refuses the database, naming the fix. */
function restoreClock(path: string, meta: ReadonlyMap<string, string>): { offsetMs: number; notBeforeMs: number } {
  const read = (key: string): number => {
    try {
      return parseStoredClockMs(meta.get(key));
    } catch (error) {
      if (!(error instanceof ClockRangeError)) throw error;
      throw new UnusableDatabaseError(
        path,
        `The database ${path} cannot be used: its stored clock (${key}) ${error.message}. paysim has not changed it. ` +
          `Start with another --db, or delete ${path} to start afresh.`,
      );
    }
  };
  return { offsetMs: read(CLOCK_OFFSET), notBeforeMs: read(CLOCK_HIGH_WATER) };
}

/** Starts the HTTP server and waits until it listens (or fails to). */
function listen(fetch: NodeFetch, port: number, hostname: string): Promise<ServerType> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch, port, hostname }, () => {
      server.off("error", onError);
      resolve(server);
    });
    // A client may half-close its side right after sending a request (a raw socket's end()). By
    // default Node then closes the connection at once, dropping an answer that waits for the group
    // commit or the end of the turn; with this it sends the answer, then closes.
    (server as ServerType & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;
    const onError = (error: NodeJS.ErrnoException) => {
      reject(
        error.code === "EADDRINUSE"
          ? new Error(`Port ${port} on ${hostname} is already in use: stop the other process or pass --port.`)
          : error,
      );
    };
    server.once("error", onError);
  });
}

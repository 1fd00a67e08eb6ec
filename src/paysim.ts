import { Bus } from "./bus.js";
import { createIds, type RandomSource } from "./domain/ids.js";
import { loopbackHostNames } from "./domain/loopback.js";
import { loadConfigFile, parseConfig, type ParsedConfig } from "./config.js";
import { ConfigError, startChaos, startInputMessage, startInputProblem } from "./domain/start-inputs.js";
import { loadTestCards, loadTestDestinations, TEST_CARDS, TEST_DESTINATIONS } from "./fixture-data.js";
import { listenHttp, portlessListener, type HttpListener } from "./http-listener.js";
import type { StartPaysimOptions } from "./options.js";
import { isTimeScale, TIME_SCALE_RANGE } from "./domain/time-scale.js";
import { ClockRangeError, createClock, realTimeNow, wallClockIso, type Clock } from "./runtime/clock.js";
import { readStoredClock, saveClock, STORED_CLOCK_KEYS, storedClockProblem, type StoredClock } from "./runtime/clock-persistence.js";
import { createScheduler, type Scheduler } from "./runtime/scheduler.js";
import { realTimers, type Timers } from "./runtime/timers.js";
import { catalogueOf, createApp, type PaysimApp } from "./server/app.js";
import { createHeldRequests } from "./server/held-requests.js";
import { createDashboardAuth } from "./server/dashboard/auth.js";
import { serveOnNode } from "./server/node-adapter.js";
import type { FaultRules } from "./resources/faults/service.js";
import { createServices, type ServiceDeps } from "./services/index.js";
import { bootstrap, DEFAULT_COMPANY, type BootstrappedCompany } from "./services/bootstrap.js";
import { createIdempotentRunner } from "./services/idempotency.js";
import { createInstanceRegistry, type InstanceInput, type StartedInstance } from "./resources/instances/service.js";
import type { CoverageReport, CoverageScope } from "./domain/coverage-report.js";
import { runReport, type RunReport } from "./domain/run-report.js";
import { createCoverage } from "./services/coverage.js";
import { createUnitOfWork, type Work } from "./services/unit-of-work.js";
import { createStore, type Store } from "./store/index.js";
import { MIGRATIONS, snapshotRules } from "./store/schema.js";
import { openDatabase } from "./store/open.js";
import type { Db } from "./store/db.js";
import { withResourceMigrations } from "./store/resource-store.js";
import type { Migration } from "./store/migrations/migration.js";
import type { SnapshotRules } from "./store/snapshot-rows.js";
import { loadResourceModules } from "./resources/load.js";
import type { ResourceModule, ResourceServiceDeps, SharedService } from "./resources/resource-module.js";
import { serviceIn, type ResourceDefinition } from "./resources/define.js";
import { openFromSnapshot, removeDatabaseFiles } from "./store/snapshot.js";
import type { SnapshotSources } from "./store/snapshot-sources.js";
import { PAYOUT_MOVE_JOB, PAYOUT_MOVE_SNAPSHOT } from "./sim/payout-simulator.js";
import { DELIVERY_JOB, DELIVERY_JOB_SNAPSHOT } from "./webhooks/delivery-job.js";
import { deliverySchema } from "./resources/deliveries/contract.js";
import { deliveryAttemptSchema } from "./resources/delivery-attempts/contract.js";
import { eventSchema } from "./resources/events/contract.js";
import { faultSchema } from "./resources/faults/contract.js";
import { createEndpointInput, webhookEndpointSchema } from "./resources/webhook-endpoints/contract.js";
import type { KeptFile } from "./shared/owned-file.js";

export { SNAPSHOT_FILE } from "./store/snapshot.js";
import type { WebhookEndpointRow } from "./resources/webhook-endpoints/store.js";
import { createDispatcher } from "./webhooks/dispatcher.js";
import { createOutbox } from "./webhooks/outbox.js";
import { createWaits, type Waits } from "./testing/waits.js";

/**
 * `paysim check-receiver` (docs/webhooks.md) sends with the webhook sender paysim delivers with; the
 * CLI reaches it here, as it reaches everything of paysim's but the HTTP API (docs/architecture.md).
 */
export { runReceiverCheck, type CaseResult, type IntentEvents } from "./webhooks/receiver-check.js";

/** What an instance is made from: the public options of `startPaysim()`, and what only `paysim start` and paysim's own tests pass. */
export interface PaysimOptions extends StartPaysimOptions {
  /** A key an earlier start generated (`paysim start` reads it from instance.json); reused when no key is given. */
  rememberedSecretKey?: string;
  /**
   * The source of real time the clock scales. For paysim's own tests, which
   * replay a restart with time passed while paysim was down; leave it unset.
   */
  realNow?: () => number;
  /**
   * The timers of every real-time wait (a fault's hold, a webhook's timeout, the scaled clock's
   * due timer, a wait's timeout) and the measure of how long an attempt or a request took and
   * when a request arrived: Node's by default. For paysim's own
   * tests, which move them by hand; leave it unset.
   */
  timers?: Timers;
  /**
   * The source of the random bytes every id, reference and secret of the instance is drawn from
   * (default: the cryptographic one). For paysim's own tests, which replay a run's ids from a
   * seeded source; leave it unset.
   */
  random?: RandomSource;
  /**
   * Called once the bus exists, before the server answers anything and before jobs that fell due
   * while paysim was down run: a listener attached here hears everything this start announces.
   */
  onBusReady?: (instance: Pick<PaysimInstance, "bus" | "clock" | "store">) => void;
  /**
   * `false`: hold no port, so only `app.request()` reaches the instance; `url` then names where
   * it would listen (`host`, `port`). For `paysim check-receiver`, which makes real events
   * without serving anything.
   */
  listen?: boolean;
  /**
   * Set on an instance that another paysim started (POST /v1/sandbox/instances): it starts no
   * instances of its own.
   */
  startedByAnother?: boolean;
  /**
   * A random value `paysim start` keeps in its instance files: /health tells a caller that names it
   * which process serves, so that `paysim stop` signals only the paysim an entry names.
   */
  instanceToken?: string;
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
  /** Endpoints from before paysim marked what --forward-to made that this start keeps without knowing who made them (the banner says so once). */
  keptFromBeforeMarking: WebhookEndpointRow[];
  /** When this paysim began to serve, by the wall clock (ISO 8601): a fact about the process, for telling running servers apart, never domain time. */
  startedAt: string;
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
  /** A fresh one-time link that signs a browser in to the dashboard as the default company: its page's button signs in, once (docs/dashboard.md). */
  dashboardLoginUrl(): string;
  /** Deletes every company's activity (docs/testing.md `reset()`); companies, keys, endpoints and the clock stay. */
  reset(): void;
  /** The coverage report of a company, the default one unless named (docs/testing.md, "Coverage"); `self` leaves its instances out. */
  coverage(companyId?: string, scope?: CoverageScope): CoverageReport;
  /** Starts a company's coverage and findings anew, the default one unless named; answers the new `since`. */
  clearCoverage(companyId?: string): string;
  /** The run report of a company, the default one unless named: its coverage and findings (docs/testing.md, "The run report"). */
  report(companyId?: string, scope?: CoverageScope): RunReport;
  /** The fault rules of every company (docs/faults.md): add, list, remove, clear. */
  faults: FaultRules;
  /**
   * The waits for events and deliveries (docs/testing.md): startPaysim()'s `events` and `webhooks`,
   * and the HTTP waits of /v1/sandbox. `close()` ends the ones still running.
   */
  waits: Waits;
  /**
   * Writes a consistent copy of the whole state to `path` (docs/testing.md), never over a live database
   * or a file that is not a snapshot; rejects once closed. `signal` aborts the write, leaving nothing.
   */
  snapshot(path: string, signal?: AbortSignal): Promise<void>;
  /** Stops listening, then closes the database. Safe to call twice. */
  close(): Promise<void>;
}

/**
 * What the store's snapshot checks need from above it (store/snapshot-sources.ts), each given by
 * its owner: the clock's range, the shipped test data, the contracts' answer schemas, and each
 * kind of job's own check.
 */
export const SNAPSHOT_SOURCES: SnapshotSources = {
  clock: { keys: STORED_CLOCK_KEYS, problemWith: storedClockProblem },
  testCards: TEST_CARDS,
  testDestinations: TEST_DESTINATIONS,
  schemas: {
    event: eventSchema,
    delivery: deliverySchema,
    deliveryAttempt: deliveryAttemptSchema,
    webhookEndpoint: webhookEndpointSchema,
    newWebhookEndpoint: createEndpointInput,
    fault: faultSchema,
  },
  jobs: { [DELIVERY_JOB]: DELIVERY_JOB_SNAPSHOT, [PAYOUT_MOVE_JOB]: PAYOUT_MOVE_SNAPSHOT },
};

/**
 * The files no file paysim writes may replace (shared/owned-file.ts): the database in use and the
 * files SQLite keeps beside it, the snapshot it was imported from, the config file and, for any
 * file but the export itself, the export's target.
 */
export function keptFilesOf(options: { db?: string; importFrom?: string; config?: unknown; exportTo?: string }): KeptFile[] {
  const kept: KeptFile[] = [];
  if (options.db !== undefined && options.db !== ":memory:") {
    kept.push({ path: options.db, role: "the database in use (--db)" });
    for (const suffix of ["-wal", "-shm", "-journal"]) kept.push({ path: options.db + suffix, role: "a file SQLite keeps beside the database in use (--db)" });
  }
  if (options.importFrom !== undefined) kept.push({ path: options.importFrom, role: "the snapshot paysim started from (--import), which it only reads" });
  if (typeof options.config === "string") kept.push({ path: options.config, role: "the config file (--config)" });
  if (options.exportTo !== undefined) kept.push({ path: options.exportTo, role: "the target of the snapshot written on exit (--export-on-exit)" });
  return kept;
}

/**
 * Builds one paysim instance: database, clock, bus, services, HTTP server.
 * The one way to make an instance, used by `paysim start` and `startPaysim()`.
 * Unlike `startPaysim()`, it prints an internal error to stderr when no `onInternalError` is given.
 */
export async function createPaysim(options: PaysimOptions = {}): Promise<PaysimInstance> {
  const start = checkedStart(options);
  const modules = await loadResourceModules();
  const opened = await openInstanceDatabase(options, start.dbPath, modules);
  // The port is held next, so every service is built knowing paysim's URL; nothing is answered until `serve` below.
  const listener =
    options.listen === false
      ? portlessListener(options.port ?? 0, start.host)
      : await listenHttp(options.port ?? 0, start.host).catch((error: unknown) => {
          opened.closeRefused();
          throw error;
        });
  try {
    const parts = buildInstance(options, start, modules, opened, listener);
    options.onBusReady?.(parts);
    listener.serve(serveOnNode(parts.app));
    const startedAt = wallClockIso();
    parts.dispatcher.recover();
    parts.scheduler.start();
    return instanceHandle(options, start, parts, opened.db, listener, startedAt);
  } catch (error) {
    await listener.close();
    opened.closeRefused();
    throw error;
  }
}

/** What a start is made of once its options are checked: bad options and a bad config are refused before the database is even opened. */
interface CheckedStart {
  host: string;
  forwardTo: readonly string[];
  config: ParsedConfig | undefined;
  timeScale: number;
  timers: Timers;
  dbPath: string;
}

function checkedStart(options: PaysimOptions): CheckedStart {
  const forwardTo = options.forwardTo === undefined ? [] : typeof options.forwardTo === "string" ? [options.forwardTo] : options.forwardTo;
  const problem = startInputProblem({ secretKey: options.secretKey, webhookSecret: options.webhookSecret, forwardTo, chaos: options.chaos });
  if (problem) throw new ConfigError(startInputMessage(problem, (input) => input));
  const config =
    typeof options.config === "string"
      ? loadConfigFile(options.config)
      : options.config === undefined
        ? undefined
        : parseConfig(options.config, "(options.config)");
  const timeScale = options.timeScale ?? 1;
  if (!isTimeScale(timeScale)) throw new ClockRangeError(`timeScale must be ${TIME_SCALE_RANGE}; got ${String(timeScale)}.`);
  return { host: options.host ?? "127.0.0.1", forwardTo, config, timeScale, timers: options.timers ?? realTimers, dbPath: options.db ?? ":memory:" };
}

/** What a database is opened with: paysim's schema steps with every resource module's, and what an import's rows may hold. */
function schemaOf(modules: readonly ResourceModule[]): { migrations: Migration[]; rules: SnapshotRules } {
  return {
    migrations: withResourceMigrations(MIGRATIONS, modules),
    rules: snapshotRules(
      SNAPSHOT_SOURCES,
      modules.flatMap((module) => module.store?.tables ?? []),
    ),
  };
}

/**
 * The whole schema an instance opens its database with (paysim's steps and every resource
 * module's) and the rules an import is held to: for tools and tests that open or check a
 * database a paysim wrote.
 */
export async function wholeSchema(): Promise<{ migrations: Migration[]; rules: SnapshotRules }> {
  return schemaOf(await loadResourceModules());
}

/** The database an instance serves from, the clock it stored, and how a start that fails leaves none an import wrote. */
interface OpenedDatabase {
  db: Db;
  storedClock: StoredClock;
  closeRefused(): void;
}

/**
 * Opens (or imports into) the database at `dbPath`, at the schema of paysim's steps and every
 * resource module's. The stored clock is checked before the database changes at all: one out of
 * range is refused, untouched.
 */
async function openInstanceDatabase(options: PaysimOptions, dbPath: string, modules: readonly ResourceModule[]): Promise<OpenedDatabase> {
  let storedClock: StoredClock = { offsetMs: 0, notBeforeMs: 0 };
  const openOptions = { checkStoredMeta: (meta: ReadonlyMap<string, string>) => void (storedClock = readStoredClock(dbPath, meta)) };
  const { migrations, rules } = schemaOf(modules);
  const db =
    options.importFrom === undefined
      ? openDatabase(dbPath, migrations, openOptions)
      : await openFromSnapshot(options.importFrom, dbPath, migrations, rules, openOptions);
  return {
    db,
    storedClock,
    // A start that fails leaves no database an import wrote: the import never happened.
    closeRefused() {
      if (db.open) db.close();
      if (options.importFrom !== undefined && dbPath !== ":memory:") removeDatabaseFiles(dbPath);
    },
  };
}

/** The parts of a built instance that its handle, its start and its stop reach. */
type InstanceParts = ReturnType<typeof buildInstance>;

/** Builds the clock, bus, scheduler, webhook delivery, companies, services and app of an instance over its open database. */
function buildInstance(options: PaysimOptions, start: CheckedStart, modules: readonly ResourceModule[], opened: OpenedDatabase, listener: HttpListener) {
  const { db } = opened;
  const { timers } = start;
  const store = createStore(db);
  const clock = createClock({ timeScale: start.timeScale, realNow: options.realNow, ...opened.storedClock });
  const bus = new Bus();
  // Recording starts with the bus, so events announced while the instance starts are waited for too;
  // an imported snapshot's events count as the instance's own history (docs/testing.md, Snapshots),
  // a file database's earlier runs' do not.
  const waits = createWaits({ bus, store, afterSeq: options.importFrom === undefined ? store.events.lastSeq() : 0, timers });
  const ids = createIds(options.random);
  const testCards = loadTestCards();
  const destinations = loadTestDestinations();
  const reportError = options.onInternalError ?? ((requestId, error) => console.error(`paysim: internal error in ${requestId}:`, error));

  const unitOfWork = createUnitOfWork(store, bus, clock, ids);
  const runIdempotently = createIdempotentRunner(store, clock, unitOfWork);
  const scheduler = createScheduler({
    store,
    clock,
    run: unitOfWork,
    ids,
    onError: (job, error) => reportError(`job ${job.kind} ${job.subject_id}`, error),
    timers,
  });
  const outbox = createOutbox({ store, clock, scheduler, bus, ids });
  unitOfWork.onEventRecorded(outbox.enqueue);
  const dispatcher = createDispatcher({ store, clock, scheduler, bus, timeoutMs: options.webhookTimeout, timers });
  // After the outbox exists: the endpoints an earlier --forward-to made and this start drops stop their deliveries.
  const boot = bootstrap(store, clock, ids, {
    config: start.config,
    secretKey: options.secretKey,
    rememberedSecretKey: options.rememberedSecretKey,
    forwardTo: start.forwardTo,
    webhookSecret: options.webhookSecret,
    forwardChaos: forwardChaos(options.chaos),
    onEndpointRemoved: (endpoint) => outbox.stopForEndpoint(endpoint.company_id, endpoint.id),
  });
  const baseUrl = () => listener.url;
  const serviceDeps: ServiceDeps = { store, clock, ids, bus, scheduler, outbox };
  const services = createServices(serviceDeps);
  const heldRequests = createHeldRequests(timers);
  const dashboardAuth = createDashboardAuth(ids, options.realNow ?? realTimeNow);
  const defaultCompanyId = boot.companies[0]!.company.id;
  const coverage = createCoverage({ bus, clock, defaultCompanyId, hasWebhookEndpoint: (companyId) => store.webhookEndpoints.hasLive(companyId) });
  const instances = createInstanceRegistry({
    clock,
    ids,
    runIdempotently,
    start: options.startedByAnother
      ? undefined
      : (input, companyId) =>
          startInstance(
            input,
            { host: start.host, webhookTimeout: options.webhookTimeout, onInternalError: reportError },
            (instanceBus, instanceClock, hasWebhookEndpoint) => coverage.rollUp(instanceBus, companyId, instanceClock, hasWebhookEndpoint),
          ),
  });

  // What a resource's module may share (`shared.service`): made once, above, where every layer reaches it.
  const sharedServices = { ...services, instances };
  const app = createApp(
    {
      store,
      clock,
      bus,
      ids,
      unitOfWork,
      runIdempotently,
      ...services,
      resourceServices: resourceServices(
        modules,
        { ...serviceDeps, scheduler, testCards, baseUrl, destinations, payoutMode: options.payouts ?? "auto" },
        db,
        (name) => sharedServices[name],
      ),
      testCards,
      loopbackHostNames: loopbackHostNames(start.host),
      baseUrl,
      heldRequests,
      waits: waits.companyWaits,
      dashboardAuth,
      instances,
      coverage,
      timers,
      reportError,
      instanceToken: options.instanceToken,
    },
    modules,
  );
  return { store, clock, bus, waits, scheduler, dispatcher, boot, services, heldRequests, dashboardAuth, coverage, instances, app, defaultCompanyId };
}

/** What the API, `startPaysim()` and `paysim start` hold of a running instance: its facts and what it can be asked. */
function instanceHandle(options: PaysimOptions, start: CheckedStart, parts: InstanceParts, db: Db, listener: HttpListener, startedAt: string): PaysimInstance {
  const { store, clock, bus, waits, scheduler, dispatcher, boot, heldRequests, dashboardAuth, coverage, instances, app, defaultCompanyId } = parts;
  const { sandbox, faults } = parts.services;
  let closing: Promise<void> | undefined;
  return {
    url: listener.url,
    port: listener.port,
    host: start.host,
    secretKey: boot.companies[0]!.secretKey!,
    generatedKey: boot.generatedKey,
    companies: boot.companies,
    forwardEndpoints: boot.forwardEndpoints,
    keptFromBeforeMarking: boot.keptFromBeforeMarking,
    startedAt,
    clock,
    bus,
    store,
    scheduler,
    app,
    webhookConnections: () => dispatcher.retained(),
    advanceClock: sandbox.advance,
    dashboardLoginUrl: () => `${listener.url}/dashboard/login/${dashboardAuth.issueLoginToken(defaultCompanyId)}`,
    reset: () => void sandbox.reset(null),
    coverage: (companyId = defaultCompanyId, scope) => coverage.report(companyId, catalogueOf(app), scope),
    clearCoverage: (companyId = defaultCompanyId) => coverage.clear(companyId),
    report: (companyId = defaultCompanyId, scope) => runReport(coverage.report(companyId, catalogueOf(app), scope), coverage.findings(companyId, scope)),
    faults,
    waits,
    async snapshot(path, signal) {
      if (closing || !db.open) throw new Error(`Cannot write the snapshot ${path}: this paysim is stopped.`);
      store.transaction(() => saveClock(store, clock)); // the snapshot resumes from this instant
      await store.snapshot(path, keptFilesOf({ db: start.dbPath, importFrom: options.importFrom, config: options.config }), signal);
    },
    close() {
      closing ??= (async () => {
        // Requests a fault holds (timeout, latency) would keep the server from closing: cut short.
        // The HTTP waits answer 503 shutting_down, sent before the connections close.
        await heldRequests.releaseAll();
        waits.close();
        await Promise.all([instances.closeAll(), listener.close()]);
        await scheduler.stop();
        dispatcher.close();
        if (db.open) {
          store.transaction(() => saveClock(store, clock));
          db.close();
        }
      })();
      return closing;
    },
  };
}

/**
 * The services of the resource modules, by collection: each made from the services' ports and its
 * own repository, which prepares its statements on the service's first use of it, or, for one the
 * module shares (`shared.service`), the one every layer reaches, `shared(name)`.
 */
function resourceServices(
  modules: readonly ResourceModule[],
  deps: Omit<ResourceServiceDeps<unknown>, "repo" | "serviceOf">,
  db: Db,
  shared: (name: SharedService) => unknown,
): Map<string, unknown> {
  const made = new Map<string, unknown>();
  const serviceOf = <Service>(definition: ResourceDefinition): Service => serviceIn<Service>(made, definition);
  for (const module of modules) {
    const { store, service } = module;
    if (module.shared?.service !== undefined) made.set(module.definition.collection, shared(module.shared.service));
    if (service === undefined || store === undefined) continue;
    let repo: unknown;
    const withRepo = Object.defineProperty({ ...deps, serviceOf }, "repo", {
      enumerable: true,
      get: () => (repo ??= store.repo(db)),
    }) as ResourceServiceDeps<unknown>;
    made.set(module.definition.collection, service(withRepo));
  }
  return made;
}

/**
 * An instance of POST /v1/sandbox/instances: a whole paysim built as any other, on a free port of
 * its parent's address, in memory, from the request's checked body (docs/testing.md, "Instances").
 */
async function startInstance(
  input: InstanceInput,
  parent: Pick<PaysimOptions, "host" | "webhookTimeout" | "onInternalError">,
  rollUp: (instanceBus: Bus, instanceClock: Clock, hasWebhookEndpoint: () => boolean) => { stopped(): void },
): Promise<StartedInstance> {
  let rolled: { stopped(): void } | undefined;
  const starting = createPaysim({
    ...parent,
    port: 0,
    db: ":memory:",
    config: { companies: [{ name: input.name ?? DEFAULT_COMPANY.name, currency: input.currency ?? DEFAULT_COMPANY.currency }] },
    secretKey: input.secret_key,
    webhookSecret: input.webhook_secret,
    forwardTo: input.forward_to,
    chaos: input.chaos,
    timeScale: input.time_scale,
    payouts: input.payouts,
    startedByAnother: true,
    // Before it serves: every request it answers counts for the company that started it too.
    onBusReady: ({ bus, clock, store }) => {
      // The instance has one company: whether it has an endpoint is whether its store holds one.
      const companyId = store.companies.defaultCompany()?.id;
      rolled = rollUp(bus, clock, () => companyId !== undefined && store.webhookEndpoints.hasLive(companyId));
    },
  });
  const instance = await starting.catch((error: unknown) => {
    rolled?.stopped();
    throw error;
  });
  return {
    url: instance.url,
    secretKey: instance.secretKey,
    signingSecret: instance.forwardEndpoints[0]?.secret ?? null,
    dashboardLoginUrl: () => instance.dashboardLoginUrl(),
    close: async () => {
      await instance.close();
      rolled?.stopped();
    },
  };
}

/** The chaos of the forwardTo endpoints (already checked by startInputProblem); null for none. */
function forwardChaos(chaos: PaysimOptions["chaos"]) {
  if (chaos === undefined) return null;
  const checked = startChaos(chaos);
  return "chaos" in checked ? checked.chaos : null;
}

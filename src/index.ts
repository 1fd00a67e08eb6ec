/**
 * The public API of the `paysim` package: run a sandbox inside your own test suite.
 *
 * @example
 * import { startPaysim } from "paysim";
 * const paysim = await startPaysim();
 * // … call paysim.url with paysim.secretKey …
 * await paysim.close();
 */
import { toAdvanceSeconds } from "./domain/duration.js";
import { createPaysim, type PaysimOptions } from "./paysim.js";
import type { StartPaysimOptions } from "./options.js";
import type { CoverageReport, CoverageScope } from "./domain/coverage-report.js";
import type { RunReport } from "./domain/run-report.js";
import { companyFaults } from "./testing/faults.js";
import type { PaysimEvents, PaysimFaults, PaysimWebhooks } from "./testing/types.js";

// Only what a merchant's code uses is exported, and nothing whose types need a devDependency
// (createPaysim's instance exposes the store, typed by @types/better-sqlite3).
import { ConfigError } from "./domain/start-inputs.js";
export type { PaysimConfig } from "./config.js";
export { ConfigError } from "./domain/start-inputs.js";
export { DatabaseInUseError, NewerDatabaseError, SnapshotError, UnusableDatabaseError } from "./store/errors.js";
export { InvalidDurationError } from "./domain/duration.js";
export { verifySignature, type VerifyOptions } from "./webhooks/sign.js";
export type { StartPaysimOptions, WebhookChaos } from "./options.js";
export { PaysimTimeoutError } from "./testing/timeout-error.js";
export type { CoverageArea, CoverageReport, CoverageScope } from "./domain/coverage-report.js";
export type { Finding, FindingCode, FindingExample, FindingSeverity } from "./domain/findings.js";
export type { RunReport } from "./domain/run-report.js";
export type {
  DeliveredWebhook,
  EventFilter,
  PaysimDelivery,
  PaysimDeliveryAttempt,
  PaysimEvent,
  PaysimEvents,
  PaysimFaultKind,
  PaysimFaultRule,
  PaysimFaultRuleInput,
  PaysimFaults,
  PaysimWebhooks,
  WaitOptions,
  WebhookFilter,
} from "./testing/types.js";

/** Every option startPaysim() takes; the compiler checks that none of StartPaysimOptions is missing. */
const START_OPTIONS = [
  "port",
  "host",
  "db",
  "secretKey",
  "forwardTo",
  "webhookSecret",
  "chaos",
  "timeScale",
  "payouts",
  "webhookTimeout",
  "importFrom",
  "config",
  "onInternalError",
] as const satisfies readonly (keyof StartPaysimOptions)[];
const allListed: Exclude<keyof StartPaysimOptions, (typeof START_OPTIONS)[number]> extends never ? true : never = true;
void allListed;

/**
 * The options as StartPaysimOptions types them. A caller without TypeScript could pass a typo, or
 * one of paysim's internal options (a replayable random source, a fake real time): refused by name,
 * as an unknown field of a request or a config file is.
 */
function publicOptions(options: StartPaysimOptions): StartPaysimOptions {
  if (typeof options !== "object" || options === null)
    throw new ConfigError(`startPaysim() takes an options object; got ${options === null ? "null" : typeof options}.`);
  const unknown = Object.keys(options).find((name) => !(START_OPTIONS as readonly string[]).includes(name));
  if (unknown !== undefined) throw new ConfigError(`startPaysim() has no option "${unknown}"; its options are ${START_OPTIONS.join(", ")}.`);
  return options;
}

/** A running in-process paysim. */
export interface RunningPaysim {
  /** Base URL, e.g. "http://127.0.0.1:53411". */
  url: string;
  /** The default company's secret key: send it as `Authorization: Bearer <key>`. */
  secretKey: string;
  /** The signing secret of the first forwardTo endpoint; undefined without forwardTo. */
  signingSecret: string | undefined;
  /** The instance's virtual clock (docs/api.md), which never runs backwards and stops at the end of year 9999. */
  clock: {
    /** The virtual now. */
    now(): Date;
    /**
     * Moves the virtual clock forward by a duration ("90s", "10m", "6h", "1d") or a
     * number of seconds, and resolves once the work that fell due is done (payout
     * moves made, due webhook attempts started). Resolves with the new now. Rejects with
     * InvalidDurationError for a bad duration, and with a RangeError, the clock unmoved, when
     * the advance would take it past 9999-12-31T23:59:59.999Z.
     */
    advance(duration: string | number): Promise<Date>;
  };
  /**
   * The instance's events since it started (or since the last reset), with an imported snapshot's
   * events first: list them, or wait for one that happened already or is yet to happen (docs/testing.md).
   *
   * @example
   * const captured = await paysim.events.waitFor({ type: "payment_intent.captured", objectId: intent.id });
   */
  events: PaysimEvents;
  /**
   * Wait for a webhook delivery to succeed, fail for good, or be attempted (docs/testing.md).
   *
   * @example
   * const { event, delivery } = await paysim.webhooks.waitFor({ type: "payment_intent.created", url: receiverUrl });
   */
  webhooks: PaysimWebhooks;
  /**
   * Fault rules for the default company (docs/faults.md): make paysim fail on purpose, to test a
   * client's timeouts and retries. `reset()` removes them too.
   *
   * @example
   * // The next payment intent is created and committed, but its answer never arrives.
   * await paysim.faults.add({ fault: "lost_response", match: { method: "POST", path: "/v1/payment_intents" } });
   */
  faults: PaysimFaults;
  /**
   * Deletes every payment intent, payout, event, delivery, attempt, idempotency record, fault rule
   * and scheduled job of every company, so each test can start clean (call it in `beforeEach`).
   * Keeps companies, keys, webhook endpoints with their secrets, the clock, and the coverage
   * counts (they belong to the run; `coverage.clear()` clears them). Attempts in
   * flight are abandoned: their outcome is never recorded.
   */
  reset(): Promise<void>;
  /**
   * Writes a consistent copy of the whole state to `path`, a SQLite file with mode 0600, while
   * requests keep being served: it holds every write answered before the call, and nothing
   * half-done. Written to a temporary file in the same folder, then renamed over `path`, so
   * `path` never holds half a snapshot. Start from it with `startPaysim({ importFrom: path })`
   * or `paysim start --import <file>`. Rejects with SnapshotError, leaving nothing at `path`, when it cannot be written.
   * Only a missing path, an empty file or an earlier snapshot is replaced: the database of a paysim (running or
   * stopped) and any other file are refused with SnapshotError saying why, untouched.
   *
   * @example
   * await paysim.snapshot("fixtures/two-paid-orders.db");
   */
  snapshot(path: string): Promise<void>;
  /**
   * A fresh one-time link that signs a browser in to the dashboard (`<url>/dashboard`, see
   * docs/dashboard.md) as the default company, without typing its key. Opening it shows a Sign in
   * button and spends nothing (a link preview or prefetch leaves it working); pressing the button
   * signs in, once. Each link expires 10 minutes after this call; sessions live in memory, so
   * `close()` signs every browser out.
   *
   * @example
   * console.log(`dashboard: ${paysim.dashboardLoginUrl()}`);
   */
  dashboardLoginUrl(): string;
  /**
   * The default company's coverage report (docs/testing.md, "Coverage"): every operation, state
   * move, event type, webhook outcome, error code and fault, with how often this run went through
   * it since the start or the last `coverage.clear()` (a `reset()` keeps it), the instances it
   * started included (`{ scope: "self" }` leaves them out), the ones it never did under
   * `uncovered`, and a `summary` of ratios. The object `GET /v1/sandbox/coverage` answers, without
   * its request_id. `coverage.clear()` starts the counts anew.
   *
   * @example
   * const { uncovered } = await paysim.coverage();
   * expect(uncovered.events).not.toContain("payment_intent.captured");
   * await paysim.coverage.clear();
   */
  coverage: PaysimCoverage;
  /**
   * The run report of the default company (docs/testing.md, "The run report"): its coverage and
   * its findings (the integration mistakes a passing suite hides, such as a lost creation retried
   * under a new Idempotency-Key), the instances it started included unless `{ scope: "self" }`.
   * The object `GET /v1/sandbox/report` answers, without its request_id. `coverage.clear()`
   * clears the findings too; a `reset()` keeps them.
   *
   * @example
   * const { findings } = await paysim.report();
   * expect(findings).toEqual([]);
   */
  report(options?: { scope?: CoverageScope }): Promise<RunReport>;
  /** Stops the server and frees its port, timers and database. Safe to call twice. */
  close(): Promise<void>;
}

/** `coverage()` of startPaysim(): the report, and `clear()` to start it anew. */
export interface PaysimCoverage {
  (options?: { scope?: CoverageScope }): Promise<CoverageReport>;
  /** Starts the default company's counts anew, those of the instances it started included. */
  clear(): Promise<void>;
}

/**
 * Starts a paysim inside this process: port 0 and an in-memory database unless told
 * otherwise. Prints nothing and writes no file unless `db` names one. Several can
 * run side by side.
 *
 * @example
 * const paysim = await startPaysim({ forwardTo: "http://127.0.0.1:3000/webhooks", payouts: "manual" });
 * await fetch(`${paysim.url}/v1/payment_intents`, {
 *   method: "POST",
 *   headers: { Authorization: `Bearer ${paysim.secretKey}`, "Content-Type": "application/json", "Idempotency-Key": "order-1" },
 *   body: JSON.stringify({ amount: 1000 }),
 * });
 * await paysim.clock.advance("6h");
 * await paysim.close();
 */
export async function startPaysim(options: StartPaysimOptions = {}): Promise<RunningPaysim> {
  const instanceOptions: PaysimOptions = {
    ...publicOptions(options),
    port: options.port ?? 0,
    db: options.db ?? ":memory:",
    onInternalError: options.onInternalError ?? (() => {}),
  };
  const instance = await createPaysim(instanceOptions);
  const { waits } = instance;
  return {
    url: instance.url,
    secretKey: instance.secretKey,
    signingSecret: instance.forwardEndpoints[0]?.secret,
    clock: {
      now: () => new Date(instance.clock.now()),
      async advance(duration) {
        await instance.advanceClock(toAdvanceSeconds(duration));
        return new Date(instance.clock.now());
      },
    },
    events: waits.events,
    webhooks: waits.webhooks,
    faults: companyFaults(instance.faults, instance.companies[0]!.company.id),
    close: () => instance.close(),
    async reset() {
      instance.reset();
    },
    snapshot: (path) => instance.snapshot(path),
    dashboardLoginUrl: () => instance.dashboardLoginUrl(),
    coverage: Object.assign(async (options: { scope?: CoverageScope } = {}) => instance.coverage(undefined, options.scope), {
      clear: async () => void instance.clearCoverage(),
    }),
    report: async (options: { scope?: CoverageScope } = {}) => instance.report(undefined, options.scope),
  };
}

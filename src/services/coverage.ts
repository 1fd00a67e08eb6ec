import type { Bus, DeliveryAttempted, RequestFaulted, RequestLogged, StateMoved } from "../bus.js";
import { FAULT_KINDS } from "../domain/faults.js";
import { COVERAGE_AREAS, type CoverageArea, type CoverageReport, type CoverageScope, type Tally } from "../domain/coverage-report.js";
import { FindingsTracker, mergeFindings, type Finding } from "../domain/findings.js";
import { byMachine, MACHINES, type Machine } from "../domain/resources.js";
import type { Clock } from "../runtime/clock.js";
import { clearFindings, freshFindings, observeFrom, reportedFindings, type CompanyFindings } from "./findings.js";

/** How webhook attempts ended, as the coverage report names them (docs/testing.md, "Coverage"). */
export const WEBHOOK_OUTCOMES = [
  "delivered_first_try",
  "delivered_after_retry",
  "gave_up",
  "duplicate",
  "reordered",
  "delayed",
  "receiver_4xx",
  "receiver_5xx",
  "timeout",
  "connection_refused",
] as const;

/**
 * What there is to cover, from the definitions the server runs: the operations the app mounts
 * (each with the route key the request log names: "POST /v1/payouts/:id/cancel"), the drawn moves
 * of each state machine ("from->to"), the event types and the error codes.
 */
export interface CoverageCatalogue {
  operations: readonly { operationId: string; route: string }[];
  transitions: Record<Machine, readonly string[]>;
  events: readonly string[];
  errors: readonly string[];
}

/** The status a request that got no answer counts under (docs/testing.md, "Coverage"). */
export const UNANSWERED_STATUS = "none";
/** How UNANSWERED_STATUS is kept among the numeric statuses: no HTTP status is negative. */
const UNANSWERED = -1;

/** Counts of one origin (a company's own requests, or the instances it started): plain maps bumped on the request path, read only when a report is asked. */
interface Counts {
  /** Route key → status (UNANSWERED for no answer) → calls. */
  routes: Map<string, Map<number, number>>;
  moves: Record<Machine, Map<string, number>>;
  refused: Record<Machine, Map<string, number>>;
  events: Map<string, number>;
  webhooks: Map<string, number>;
  errors: Map<string, number>;
  faults: Map<string, number>;
}

/**
 * What one company's run went through: its own counts and those rolled up from the instances it
 * started, each bounded by the catalogue whatever the number of instances. What else a company's
 * run records (findings) belongs here too: cleared together, never by a reset.
 */
interface CompanyLedger {
  since: string;
  own: Counts;
  fromInstances: Counts;
  /** Instances rolled into `fromInstances` since `since`: those still running at the clear and those started after, stopped ones included. */
  instancesRolledIn: number;
  /** Instances of this company running now: still rolled in after a clear. */
  instancesLive: number;
  findings: CompanyFindings;
}

const bump = <K>(map: Map<K, number>, key: K) => map.set(key, (map.get(key) ?? 0) + 1);

const freshCounts = (): Counts => ({
  routes: new Map(),
  moves: byMachine(() => new Map()),
  refused: byMachine(() => new Map()),
  events: new Map(),
  webhooks: new Map(),
  errors: new Map(),
  faults: new Map(),
});

/** The outcomes one attempt counts for; a duplicate only as one (its delivery had already succeeded). */
export function webhookOutcomes(update: Pick<DeliveryAttempted, "status" | "attempts" | "attempt">): string[] {
  const { statusCode, error, chaos } = update.attempt;
  const outcomes: string[] = chaos ? [chaos] : [];
  if (chaos === "duplicate") return outcomes;
  if (statusCode !== null && statusCode >= 200 && statusCode < 300 && update.status === "succeeded") {
    outcomes.push(update.attempts === 1 ? "delivered_first_try" : "delivered_after_retry");
  } else if (statusCode !== null && statusCode >= 400 && statusCode < 500) outcomes.push("receiver_4xx");
  else if (statusCode !== null && statusCode >= 500) outcomes.push("receiver_5xx");
  else if (statusCode === null && error?.startsWith("timeout")) outcomes.push("timeout");
  else if (statusCode === null && error === "connection refused") outcomes.push("connection_refused");
  if (update.status === "failed") outcomes.push("gave_up");
  return outcomes;
}

/** Whether a request counts: the /v1 API, not the sandbox controls under /v1/sandbox. */
const counted = (path: string) => path.startsWith("/v1/") && !path.startsWith("/v1/sandbox/") && path !== "/v1/sandbox";

const bumpRoute = (counts: Counts, route: string, status: number) => {
  let statuses = counts.routes.get(route);
  if (!statuses) counts.routes.set(route, (statuses = new Map()));
  bump(statuses, status);
};

/**
 * Counts what `bus` announces into the counts `into` names for a company (undefined: a request
 * with no known key). A fault counts when it hits its request; a `timeout`, which is never
 * answered, counts its call then too, under "none", rather than when its held connection ends.
 */
function countFrom(bus: Bus, into: (companyId: string | undefined) => Counts): void {
  bus.on("request.faulted", (faulted: RequestFaulted) => {
    if (!counted(faulted.path)) return;
    const counts = into(faulted.companyId);
    bump(counts.faults, faulted.fault);
    if (faulted.fault === "timeout" && faulted.route !== undefined) bumpRoute(counts, faulted.route, UNANSWERED);
  });
  bus.on("request.logged", (logged: RequestLogged) => {
    if (!counted(logged.path)) return;
    const counts = into(logged.companyId);
    // A timeout's call was counted when the fault hit it.
    if (logged.route !== undefined && logged.fault?.fault !== "timeout") {
      bumpRoute(counts, logged.route, logged.unanswered ? UNANSWERED : logged.status);
    }
    if (logged.errorCode !== undefined) bump(counts.errors, logged.errorCode);
  });
  bus.on("state.moved", (moved: StateMoved) => bump(into(moved.companyId)[moved.refused ? "refused" : "moves"][moved.machine], `${moved.from}->${moved.to}`));
  bus.on("event.created", (event) => bump(into(event.companyId).events, event.type));
  bus.on("delivery.attempted", (update: DeliveryAttempted) => {
    const counts = into(update.companyId);
    for (const outcome of webhookOutcomes(update)) bump(counts.webhooks, outcome);
  });
}

/** `a` and `b` added together, into new maps. */
function added(a: Counts, b: Counts): Counts {
  const sum = <K>(x: Map<K, number>, y: Map<K, number>) => {
    const out = new Map(x);
    for (const [key, n] of y) out.set(key, (out.get(key) ?? 0) + n);
    return out;
  };
  const routes = new Map<string, Map<number, number>>();
  for (const route of new Set([...a.routes.keys(), ...b.routes.keys()]))
    routes.set(route, sum(a.routes.get(route) ?? new Map(), b.routes.get(route) ?? new Map()));
  return {
    routes,
    moves: byMachine((machine) => sum(a.moves[machine], b.moves[machine])),
    refused: byMachine((machine) => sum(a.refused[machine], b.refused[machine])),
    events: sum(a.events, b.events),
    webhooks: sum(a.webhooks, b.webhooks),
    errors: sum(a.errors, b.errors),
    faults: sum(a.faults, b.faults),
  };
}

/**
 * Counts, per company and in memory, what the API, the state machines and the webhooks went
 * through (docs/testing.md, "Coverage"), from the bus. A request with no known key counts for the
 * default company. Counts belong to the run: a reset keeps them, `clear` starts a company's anew.
 * What the instances a company started go through counts for it too (`rollUp`), live and after
 * they stop.
 */
export function createCoverage({
  bus,
  clock,
  defaultCompanyId,
  hasWebhookEndpoint = () => false,
}: {
  bus: Bus;
  clock: Clock;
  defaultCompanyId: string;
  /** Whether a company has a webhook endpoint now (the polling finding asks, seldom). */
  hasWebhookEndpoint?: (companyId: string) => boolean;
}) {
  const byCompany = new Map<string, CompanyLedger>();
  const startedAt = clock.nowIso();

  const ledgerOf = (companyId: string): CompanyLedger => {
    let ledger = byCompany.get(companyId);
    if (!ledger) {
      ledger = {
        since: startedAt,
        own: freshCounts(),
        fromInstances: freshCounts(),
        instancesRolledIn: 0,
        instancesLive: 0,
        findings: freshFindings(companyId, { clock, hasWebhookEndpoint }),
      };
      byCompany.set(companyId, ledger);
    }
    return ledger;
  };
  countFrom(bus, (companyId) => ledgerOf(companyId ?? defaultCompanyId).own);
  // A request with no known key is no company's client: no finding comes of it (observeFrom).
  observeFrom(
    bus,
    clock,
    (companyId) => ledgerOf(companyId).findings.own,
    () => [...byCompany.values()].map((ledger) => ledger.findings.own),
  );

  return {
    /** The report of `companyId` against `catalogue`: every entry present, zeros included; `self` leaves its instances out. */
    report(companyId: string, catalogue: CoverageCatalogue, scope: CoverageScope = "all"): CoverageReport {
      const ledger = ledgerOf(companyId);
      if (scope === "self") return coverageReport(ledger.since, ledger.own, 0, catalogue);
      return coverageReport(ledger.since, added(ledger.own, ledger.fromInstances), ledger.instancesRolledIn, catalogue);
    },

    /** The company's findings (docs/testing.md, "Findings"), errors first; `self` leaves its instances out. */
    findings(companyId: string, scope: CoverageScope = "all"): Finding[] {
      return reportedFindings(ledgerOf(companyId).findings, scope);
    },

    /** Starts the company's counts and findings anew, its instances' included; answers the new `since`. */
    clear(companyId: string): string {
      const ledger = ledgerOf(companyId);
      clearFindings(ledger.findings);
      ledger.since = clock.nowIso();
      ledger.own = freshCounts();
      ledger.fromInstances = freshCounts();
      ledger.instancesRolledIn = ledger.instancesLive;
      return ledger.since;
    },

    /**
     * Rolls what an instance's bus announces into `companyId`'s counts, from now on: its listeners
     * add to the company's fixed maps and hold nothing of the instance, so a stopped instance's
     * counts stay with no trace of it. Its findings are judged as the instance judges its own: on
     * its clock, from the requests authenticated as its company. Answers what to call once the
     * instance has stopped.
     */
    rollUp(instanceBus: Bus, companyId: string, instanceClock: Clock, instanceHasWebhookEndpoint: () => boolean = () => false): { stopped(): void } {
      const ledger = ledgerOf(companyId);
      ledger.instancesRolledIn++;
      ledger.instancesLive++;
      countFrom(instanceBus, () => ledgerOf(companyId).fromInstances);
      // The instance's findings are its own tracker's until it stops, then merged into the bounded list.
      const tracker = new FindingsTracker(instanceHasWebhookEndpoint);
      ledger.findings.live.add(tracker);
      let stopped = false;
      observeFrom(
        instanceBus,
        instanceClock,
        () => (stopped ? undefined : tracker),
        () => (stopped ? [] : [tracker]),
      );
      return {
        stopped() {
          if (stopped) return;
          stopped = true;
          const findings = ledgerOf(companyId).findings;
          if (findings.live.delete(tracker)) findings.stopped = mergeFindings([findings.stopped, tracker.findings()]);
          ledgerOf(companyId).instancesLive--;
        },
      };
    },
  };
}

export type Coverage = ReturnType<typeof createCoverage>;

/** Every key of `keys` with its count, 0 when none. */
function tally(keys: readonly string[], counts: Map<string, number>): Tally {
  const out: Tally = {};
  for (const key of keys) out[key] = counts.get(key) ?? 0;
  return out;
}

function coverageReport(since: string, counts: Counts, instances: number, catalogue: CoverageCatalogue): CoverageReport {
  const operations: CoverageReport["operations"] = {};
  for (const { operationId, route } of catalogue.operations) {
    const statuses: Tally = {};
    let calls = 0;
    // By status, "none" (kept as UNANSWERED) last.
    for (const [status, n] of [...(counts.routes.get(route) ?? new Map<number, number>())].sort(([a], [b]) =>
      a === UNANSWERED ? 1 : b === UNANSWERED ? -1 : a - b,
    )) {
      statuses[status === UNANSWERED ? UNANSWERED_STATUS : String(status)] = n;
      calls += n;
    }
    operations[operationId] = { calls, statuses };
  }
  const transitions = byMachine((machine) => tally(catalogue.transitions[machine], counts.moves[machine]));
  const areas = {
    operations: Object.fromEntries(Object.entries(operations).map(([id, { calls }]) => [id, calls])),
    transitions: Object.fromEntries(MACHINES.flatMap((machine) => Object.entries(transitions[machine]).map(([move, n]) => [`${machine}: ${move}`, n]))),
    events: tally(catalogue.events, counts.events),
    webhooks: tally(WEBHOOK_OUTCOMES, counts.webhooks),
    errors: tally(catalogue.errors, counts.errors),
    faults: tally(FAULT_KINDS, counts.faults),
  } satisfies Record<CoverageArea, Tally>;
  const uncovered = {} as CoverageReport["uncovered"];
  const summary = {} as CoverageReport["summary"];
  for (const area of COVERAGE_AREAS) {
    const entries = Object.entries(areas[area]);
    uncovered[area] = entries.filter(([, n]) => n === 0).map(([key]) => key);
    summary[area] = `${entries.length - uncovered[area].length}/${entries.length}`;
  }
  const refused = (machine: Machine): Tally => Object.fromEntries([...counts.refused[machine]].sort(([a], [b]) => a.localeCompare(b)));
  return {
    object: "coverage",
    version: 1,
    since,
    instances,
    operations,
    transitions,
    refused_transitions: byMachine(refused),
    events: areas.events,
    webhooks: areas.webhooks,
    errors: areas.errors,
    faults: areas.faults,
    uncovered,
    summary,
  };
}

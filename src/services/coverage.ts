import type { Bus, DeliveryAttempted, RequestLogged, StateMoved } from "../bus.js";
import { FAULT_KINDS } from "../domain/faults.js";
import { COVERAGE_AREAS, type CoverageArea, type CoverageReport, type Tally } from "../domain/coverage-report.js";
import type { Clock } from "../runtime/clock.js";

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
 * of the two state machines ("from->to"), the event types and the error codes.
 */
export interface CoverageCatalogue {
  operations: readonly { operationId: string; route: string }[];
  transitions: { payment_intent: readonly string[]; payout: readonly string[] };
  events: readonly string[];
  errors: readonly string[];
}

type Machine = StateMoved["machine"];

/** One company's counts: plain maps bumped on the request path, read only when a report is asked. */
interface Counts {
  since: string;
  /** Route key → status → calls. */
  routes: Map<string, Map<number, number>>;
  moves: Record<Machine, Map<string, number>>;
  refused: Record<Machine, Map<string, number>>;
  events: Map<string, number>;
  webhooks: Map<string, number>;
  errors: Map<string, number>;
  faults: Map<string, number>;
}

const bump = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);

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

/**
 * Counts, per company and in memory, what the API, the state machines and the webhooks went
 * through (docs/testing.md, "Coverage"), from the bus. A request with no known key counts for the
 * default company. A reset clears the counts of the companies it resets.
 */
export function createCoverage({ bus, clock, defaultCompanyId }: { bus: Bus; clock: Clock; defaultCompanyId: string }) {
  const byCompany = new Map<string, Counts>();
  let startedAt = clock.nowIso();

  const fresh = (): Counts => ({
    since: clock.nowIso(),
    routes: new Map(),
    moves: { payment_intent: new Map(), payout: new Map() },
    refused: { payment_intent: new Map(), payout: new Map() },
    events: new Map(),
    webhooks: new Map(),
    errors: new Map(),
    faults: new Map(),
  });
  const countsOf = (companyId: string): Counts => {
    let counts = byCompany.get(companyId);
    if (!counts) byCompany.set(companyId, (counts = { ...fresh(), since: startedAt }));
    return counts;
  };

  const onRequest = (logged: RequestLogged) => {
    if (!counted(logged.path)) return;
    const counts = countsOf(logged.companyId ?? defaultCompanyId);
    if (logged.route !== undefined) {
      let statuses = counts.routes.get(logged.route);
      if (!statuses) counts.routes.set(logged.route, (statuses = new Map()));
      statuses.set(logged.status, (statuses.get(logged.status) ?? 0) + 1);
    }
    if (logged.errorCode !== undefined) bump(counts.errors, logged.errorCode);
    if (logged.fault) bump(counts.faults, logged.fault.fault);
  };
  const onMove = (moved: StateMoved) => bump(countsOf(moved.companyId)[moved.refused ? "refused" : "moves"][moved.machine], `${moved.from}->${moved.to}`);
  const onAttempt = (update: DeliveryAttempted) => {
    const counts = countsOf(update.companyId);
    for (const outcome of webhookOutcomes(update)) bump(counts.webhooks, outcome);
  };
  bus.on("request.logged", onRequest);
  bus.on("state.moved", onMove);
  bus.on("event.created", (event) => bump(countsOf(event.companyId).events, event.type));
  bus.on("delivery.attempted", onAttempt);
  bus.on("sandbox.reset", ({ companyId }) => {
    if (companyId !== null) return void byCompany.set(companyId, fresh());
    byCompany.clear();
    startedAt = clock.nowIso();
  });

  return {
    /** The report of `companyId` against `catalogue`: every entry present, zeros included. */
    report(companyId: string, catalogue: CoverageCatalogue): CoverageReport {
      const counts = byCompany.get(companyId) ?? { ...fresh(), since: startedAt };
      return coverageReport(counts, catalogue);
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

function coverageReport(counts: Counts, catalogue: CoverageCatalogue): CoverageReport {
  const operations: CoverageReport["operations"] = {};
  for (const { operationId, route } of catalogue.operations) {
    const statuses: Tally = {};
    let calls = 0;
    for (const [status, n] of [...(counts.routes.get(route) ?? new Map<number, number>())].sort(([a], [b]) => a - b)) {
      statuses[String(status)] = n;
      calls += n;
    }
    operations[operationId] = { calls, statuses };
  }
  const transitions = {
    payment_intent: tally(catalogue.transitions.payment_intent, counts.moves.payment_intent),
    payout: tally(catalogue.transitions.payout, counts.moves.payout),
  };
  const areas = {
    operations: Object.fromEntries(Object.entries(operations).map(([id, { calls }]) => [id, calls])),
    transitions: Object.fromEntries(
      (["payment_intent", "payout"] as const).flatMap((machine) => Object.entries(transitions[machine]).map(([move, n]) => [`${machine}: ${move}`, n])),
    ),
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
    since: counts.since,
    operations,
    transitions,
    refused_transitions: { payment_intent: refused("payment_intent"), payout: refused("payout") },
    events: areas.events,
    webhooks: areas.webhooks,
    errors: areas.errors,
    faults: areas.faults,
    uncovered,
    summary,
  };
}

/**
 * The shape of the coverage report (docs/testing.md, "Coverage"): what services/coverage.ts builds,
 * the API answers, and the CLI and the dashboard show. Plain data, so that a reader of the answer
 * needs nothing of what counts it.
 */

/** How many times each item was gone through. */
export type Tally = Record<string, number>;

/** The report's areas, in the order the summary, the CLI and the dashboard show them. */
export const COVERAGE_AREAS = ["operations", "transitions", "events", "webhooks", "errors", "faults"] as const;
/** One area of the coverage report: "operations", "transitions", "events", "webhooks", "errors" or "faults". */
export type CoverageArea = (typeof COVERAGE_AREAS)[number];

/** The state machines whose moves the report counts. */
type Machine = "payment_intent" | "payout";

/** The report of docs/testing.md, "Coverage" (the HTTP answer adds its request_id). */
export interface CoverageReport {
  object: "coverage";
  version: 1;
  since: string;
  operations: Record<string, { calls: number; statuses: Tally }>;
  transitions: Record<Machine, Tally>;
  refused_transitions: Record<Machine, Tally>;
  events: Tally;
  webhooks: Tally;
  errors: Tally;
  faults: Tally;
  uncovered: Record<CoverageArea, string[]>;
  summary: Record<CoverageArea, string>;
}

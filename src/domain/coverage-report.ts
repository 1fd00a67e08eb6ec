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

/** Which counts a report holds: the company's own and those of the instances it started (`all`), or its own only (`self`). */
export const COVERAGE_SCOPES = ["all", "self"] as const;
/** What a coverage report holds: `"all"`, the company's own requests and those of the instances it started, or `"self"`, its own only. */
export type CoverageScope = (typeof COVERAGE_SCOPES)[number];

import type { Machine } from "./resources.js";

/** The report of docs/testing.md, "Coverage" (the HTTP answer adds its request_id). */
export interface CoverageReport {
  object: "coverage";
  version: 1;
  since: string;
  /** How many instances the company started are counted in (those stopped included); 0 for `scope=self`. */
  instances: number;
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

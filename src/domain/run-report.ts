/**
 * The run report (docs/testing.md, "The run report"): a run's coverage and its findings, and a
 * summary a CI step reads at a glance. Plain data, built from the two.
 */
import type { CoverageReport } from "./coverage-report.js";
import { findingCounts, type Finding, type FindingSeverity } from "./findings.js";

/** What `report()` resolves to and `GET /v1/sandbox/report` answers: the run's coverage, its findings, and their summary. */
export interface RunReport {
  object: "report";
  version: 1;
  since: string;
  coverage: CoverageReport;
  findings: Finding[];
  summary: { coverage: CoverageReport["summary"]; findings: Record<FindingSeverity, number> };
}

/** The run report of a coverage report and the findings of the same run. */
export function runReport(coverage: CoverageReport, findings: Finding[]): RunReport {
  return {
    object: "report",
    version: 1,
    since: coverage.since,
    coverage,
    findings,
    summary: { coverage: coverage.summary, findings: findingCounts(findings) },
  };
}

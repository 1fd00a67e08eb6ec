import { InvalidArgumentError } from "commander";
import { COVERAGE_AREAS, type CoverageArea } from "../../domain/coverage-report.js";
import type { RunReport } from "../../domain/run-report.js";

/**
 * `paysim exec --fail-on`: the conditions of the run report that fail a run whose command passed
 * (docs/cli.md): `findings`, `errors` (findings of severity error), `uncovered:<area>`.
 */
export type FailOnCondition = "findings" | "errors" | `uncovered:${CoverageArea}`;

/** The status `exec` exits with when a condition holds and the command exited 0. */
export const FAIL_ON_STATUS = 3;

const CONDITIONS: readonly FailOnCondition[] = ["findings", "errors", ...COVERAGE_AREAS.map((area) => `uncovered:${area}` as const)];

/**
 * Commander's parser of `--fail-on <list>`: a comma-separated list, added to the earlier
 * occurrences'; an unknown condition is a usage error, said before anything runs.
 *
 * @example
 * parseFailOn("errors,uncovered:faults") // ["errors", "uncovered:faults"]
 */
export function parseFailOn(value: string, earlier: FailOnCondition[] = []): FailOnCondition[] {
  const names = value.split(",").map((name) => name.trim());
  const unknown = names.find((name) => !(CONDITIONS as readonly string[]).includes(name));
  if (unknown !== undefined)
    throw new InvalidArgumentError(`${JSON.stringify(unknown)} is not a condition: it must be a comma-separated list of ${CONDITIONS.join(", ")}.`);
  return [...new Set([...earlier, ...(names as FailOnCondition[])])];
}

/** The area a condition names, for `uncovered:<area>`. */
export function uncoveredArea(condition: FailOnCondition): CoverageArea | undefined {
  return condition.startsWith("uncovered:") ? (condition.slice("uncovered:".length) as CoverageArea) : undefined;
}

/**
 * The conditions of `conditions` that hold for `report`, each said in words.
 *
 * @example
 * heldConditions(report, ["errors"]) // ["errors: 1 finding of severity error (new_key_on_retry)"]
 */
export function heldConditions(report: RunReport, conditions: readonly FailOnCondition[]): string[] {
  const held: string[] = [];
  for (const condition of conditions) {
    const area = uncoveredArea(condition);
    if (area !== undefined) {
      const left = report.coverage.uncovered[area] ?? [];
      if (left.length > 0) held.push(`${condition}: ${left.length} never gone through (${left.slice(0, 5).join(", ")}${left.length > 5 ? ", …" : ""})`);
      continue;
    }
    const findings = condition === "errors" ? report.findings.filter((finding) => finding.severity === "error") : report.findings;
    if (findings.length === 0) continue;
    // Findings are counted as the summary counts them: one per code, however often it was raised.
    const count = findings.length;
    const what = condition === "errors" ? `finding${count === 1 ? "" : "s"} of severity error` : `finding${count === 1 ? "" : "s"}`;
    held.push(`${condition}: ${count} ${what} (${findings.map((finding) => finding.code).join(", ")})`);
  }
  return held;
}

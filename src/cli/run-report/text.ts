import { findingOccurrences, type Finding, type FindingSeverity } from "../../domain/findings.js";
import type { RunReport } from "../../domain/run-report.js";
import { coverageLines } from "../commands/coverage.js";
import { paint } from "../format.js";
import { terminalText } from "../../domain/terminal-text.js";

/** Where the advice wraps: a line a terminal of 100 columns shows whole. */
const WRAP_AT = 100;

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** "1 error, 0 warnings": the findings' summary (distinct findings of each severity) as a line says it. */
export function findingsCountText(counts: Record<FindingSeverity, number>): string {
  return `${plural(counts.error, "error")}, ${plural(counts.warning, "warning")}`;
}

/**
 * "1 error, 1 warning (4 occurrences)": the findings of each severity and, when there are any, how
 * many times they were raised in all (each finding's `count`).
 */
export function findingsWithOccurrencesText(report: Pick<RunReport, "findings" | "summary">): string {
  const counts = findingsCountText(report.summary.findings);
  return report.findings.length === 0 ? counts : `${counts} (${plural(findingOccurrences(report.findings), "occurrence")})`;
}

/**
 * The run report for a person: the findings first (each with its severity, code, count, title,
 * advice and up to 5 examples, the request ids first), then the coverage as `paysim coverage` prints it.
 *
 * @example
 * reportLines(report) // ["Findings: 1 error, 0 warnings", "", "error  new_key_on_retry  (1 time)", "  A creation that got no answer…", …, "AREA         COVERED", …]
 */
export function reportLines(report: RunReport): string[] {
  const lines = [`Findings: ${findingsCountText(report.summary.findings)}`];
  if (report.findings.length === 0) lines.push("", "No findings.");
  for (const finding of report.findings) lines.push("", ...findingLines(finding));
  lines.push("", "Coverage:", ...coverageLines(report.coverage));
  return lines;
}

function findingLines(finding: Finding): string[] {
  const severity = paint(finding.severity, finding.severity === "error" ? "red" : "yellow");
  const lines = [`${severity}  ${terminalText(finding.code)}  (${finding.count} time${finding.count === 1 ? "" : "s"})`, `  ${terminalText(finding.title)}`];
  lines.push(...wrappedWords(`  Advice: `, terminalText(finding.advice)));
  if (finding.examples.length === 0) return lines;
  lines.push("  Examples:");
  for (const example of finding.examples) {
    // The request that raised it and the object concerned; for a webhook rule, the delivery.
    const ref = [example.request_id, example.object_id].filter((id) => id !== null && id !== undefined).map((id) => terminalText(id!));
    lines.push(...wrappedWords(`    ${ref.join(" ") || "—"}: `, terminalText(example.detail)));
  }
  return lines;
}

/** `text` after `label`, wrapped at word boundaries under its first word. */
function wrappedWords(label: string, text: string): string[] {
  const indent = " ".repeat(label.length);
  const lines: string[] = [];
  let line = label;
  for (const word of text.split(" ")) {
    if (line.length > indent.length && line !== label && line.length + 1 + word.length > WRAP_AT) {
      lines.push(line);
      line = indent + word;
    } else line += (line === label ? "" : " ") + word;
  }
  lines.push(line);
  return lines;
}

import { COVERAGE_AREAS } from "../../domain/coverage-report.js";
import type { RunReport } from "../../domain/run-report.js";
import { findingsCountText } from "./text.js";

/**
 * A table cell of text paysim did not choose (a request's path in an example's detail): one
 * line, and nothing in it read as Markdown or HTML, so it cannot break the table or put markup
 * in a CI page.
 */
export function markdownCell(text: string): string {
  return (
    text
      // eslint-disable-next-line no-control-regex -- controls and line breaks are what is taken out
      .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, " ")
      .replace(/&/g, "&amp;")
      .replace(/</g, "&lt;")
      .replace(/>/g, "&gt;")
      .replace(/[\\`*[\]|~]/g, (char) => `\\${char}`)
  );
}

/**
 * The run report as Markdown, for a CI page (GitHub's job summary): a heading, the findings'
 * table, then the coverage table with what each area left out.
 */
export function reportMarkdown(report: RunReport): string {
  const lines = ["## paysim run report", "", `**Findings:** ${findingsCountText(report.summary.findings)}`, ""];
  if (report.findings.length > 0) {
    lines.push("| severity | code | count | title | advice | examples |", "|---|---|---|---|---|---|");
    for (const finding of report.findings) {
      const examples = finding.examples.map(
        (example) => `${example.request_id === null ? "" : `${markdownCell(example.request_id)}: `}${markdownCell(example.detail)}`,
      );
      lines.push(
        `| ${finding.severity} | \`${finding.code}\` | ${finding.count} | ${markdownCell(finding.title)} | ${markdownCell(finding.advice)} | ${examples.join("<br>")} |`,
      );
    }
    lines.push("");
  }
  lines.push("**Coverage**", "", "| area | covered | never gone through |", "|---|---|---|");
  for (const area of COVERAGE_AREAS) {
    const uncovered = report.coverage.uncovered[area] ?? [];
    lines.push(`| ${area} | ${report.summary.coverage[area] ?? "?"} | ${uncovered.map(markdownCell).join(", ")} |`);
  }
  return `${lines.join("\n")}\n`;
}

import { COVERAGE_AREAS } from "../../domain/coverage-report.js";
import type { RunReport } from "../../domain/run-report.js";
import { escapeControls } from "../../domain/terminal-text.js";
import { findingsCountText } from "./text.js";

/**
 * A table cell of paysim's own text (a finding's title and advice, the catalogue's names): one
 * line, and nothing in it read as Markdown or HTML, so it cannot break the table. Text that came
 * from requests goes through markdownCode instead.
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
 * Text that came from requests (a path, an id, a webhook URL in an example), as code in a table
 * cell: in a code span no link, e-mail or `www.` autolink, emphasis, image or HTML comes out of
 * it under GitHub's renderer. Line breaks, controls and bidirectional marks are written as `\u`
 * escapes first, so the text keeps its row and its order. A pipe would end the cell even inside a
 * code span, and a backslash before it would undo its escape there, so each pipe is written as an
 * escaped pipe between code spans. A code span's fence is one backtick longer than the longest run
 * in its text, and a space pads text that starts or ends with a backtick or a space (the renderer
 * takes one off each side, unless the text is only spaces).
 *
 * @example
 * markdownCode("GET /v1/payment_intents/x@evil.example") // "`GET /v1/payment_intents/x@evil.example`"
 * markdownCode("a|b`c")                                // "`a`\\|``b`c``"
 */
export function markdownCode(text: string): string {
  return escapeControls(text).split("|").map(codeSpan).join("\\|");
}

function codeSpan(text: string): string {
  if (text === "") return "";
  const longestRun = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = "`".repeat(longestRun + 1);
  const padding = /^[ `]|[ `]$/.test(text) && /[^ ]/.test(text) ? " " : "";
  return `${fence}${padding}${text}${padding}${fence}`;
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
      // The request that raised it and the object concerned; for a webhook rule, the delivery.
      const examples = finding.examples.map((example) => {
        const ref = [example.request_id, example.object_id].filter((id) => id !== null && id !== undefined).map((id) => markdownCode(id!));
        return `${ref.length === 0 ? "" : `${ref.join(" ")}: `}${markdownCode(example.detail)}`;
      });
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

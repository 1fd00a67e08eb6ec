import { Command } from "commander";
import { COVERAGE_AREAS, type CoverageReport } from "../../domain/coverage-report.js";
import type { CoverageClearedResource } from "../api-types.js";
import { connect, withClientOptions, type ClientFlags } from "../client.js";
import { terminalText } from "../../domain/terminal-text.js";
import { json, table } from "../format.js";
import { consoleOutput, type Output } from "../output.js";

/** Where the uncovered items wrap: a line a terminal of 100 columns shows whole. */
const WRAP_AT = 100;

/** The one line `paysim exec --coverage` prints: every area with its ratio. */
export function coverageSummaryLine(report: Pick<CoverageReport, "summary">): string {
  return `coverage: ${COVERAGE_AREAS.map((area) => `${area} ${report.summary[area] ?? "?"}`).join(", ")}`;
}

/**
 * The report for a person: one line per area with its ratio, then what was never gone
 * through, grouped by area and wrapped.
 *
 * @example
 * coverageLines(report) // ["AREA         COVERED", "operations   4/16", …, "", "Uncovered:", "  operations: createPayout, listPayouts", …]
 */
export function coverageLines(report: Pick<CoverageReport, "summary" | "uncovered">): string[] {
  const lines = table(COVERAGE_AREAS, [
    { header: "AREA", value: (area) => area },
    { header: "COVERED", value: (area) => report.summary[area] ?? "?" },
  ]);
  const groups = COVERAGE_AREAS.filter((area) => (report.uncovered[area] ?? []).length > 0);
  if (groups.length === 0) return [...lines, "", "Nothing uncovered."];
  lines.push("", "Uncovered:");
  const width = Math.max(...groups.map((area) => area.length)) + 2;
  for (const area of groups) lines.push(...wrapped(`  ${`${area}:`.padEnd(width)}`, report.uncovered[area]!.map(terminalText)));
  return lines;
}

/** `items` after `label`, comma-separated, wrapped under the first item. */
function wrapped(label: string, items: readonly string[]): string[] {
  const indent = " ".repeat(label.length);
  const lines: string[] = [];
  let line = label;
  items.forEach((item, i) => {
    const piece = i < items.length - 1 ? `${item},` : item;
    if (i > 0 && line.length + 1 + piece.length > WRAP_AT) {
      lines.push(line);
      line = indent + piece;
    } else line += (i > 0 ? " " : "") + piece;
  });
  lines.push(line);
  return lines;
}

/** `paysim coverage`: GET /v1/sandbox/coverage for the key's company (docs/testing.md, "Coverage"). */
export function coverageCommand(output: Output = consoleOutput): Command {
  return withClientOptions(
    new Command("coverage").description("What the company's calls went through since the start or the last clear, and what they left out"),
  )
    .option("--clear", "start the company's coverage and findings anew (DELETE /v1/sandbox/coverage) instead of printing it")
    .addHelpText(
      "after",
      `
Prints one line per area (operations, state moves, event types, webhook outcomes, error
codes, faults) with how many of its items were gone through, then the items never gone
through. Counted since the server started or the company's last --clear (a reset keeps
it), the instances the company started included; requests to /v1/sandbox are not counted.
--json prints the whole report, counts included.

Examples:
  $ paysim coverage
  $ paysim coverage --json
  $ paysim coverage --clear
  $ paysim exec --coverage coverage.json -- npm test`,
    )
    .action(async (flags: ClientFlags & { clear?: boolean }) => {
      const client = await connect(flags, output);
      if (flags.clear) {
        const cleared = await client.call<CoverageClearedResource>("DELETE", "/v1/sandbox/coverage");
        return output.line(flags.json ? json(cleared) : `Coverage cleared: counting again from ${cleared.since}.`);
      }
      const report = await client.call<CoverageReport>("GET", "/v1/sandbox/coverage");
      if (flags.json) return output.line(json(report));
      for (const line of coverageLines(report)) output.line(line);
    });
}

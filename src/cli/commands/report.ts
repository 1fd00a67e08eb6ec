import { Command, Option } from "commander";
import type { RunReport } from "../../domain/run-report.js";
import { connect, withClientOptions, type ClientFlags } from "../client.js";
import { json } from "../format.js";
import { consoleOutput, type Output } from "../output.js";
import { reportMarkdown } from "../run-report/markdown.js";
import { reportLines } from "../run-report/text.js";

/** `paysim report`: GET /v1/sandbox/report for the key's company (docs/testing.md, "The run report"). */
export function reportCommand(output: Output = consoleOutput): Command {
  return withClientOptions(new Command("report").description("The run report of the company: its findings, then its coverage"))
    .addOption(new Option("--markdown", "print a Markdown summary: the findings' table, then the coverage table").conflicts("json"))
    .addHelpText(
      "after",
      `
Prints the findings first (the integration mistakes paysim saw: severity, code, how many
times, what it is, what to do, and up to 5 examples with their request ids), then the
coverage as paysim coverage prints it. Counted since the server started or the company's
coverage was last cleared, its instances included. --json prints the whole report;
--markdown a Markdown summary, as paysim exec appends to GitHub's job summary.

Examples:
  $ paysim report
  $ paysim report --json
  $ paysim report --markdown >> "$GITHUB_STEP_SUMMARY"
  $ paysim exec --report report.json --junit report.xml --fail-on errors -- npm test`,
    )
    .action(async (flags: ClientFlags & { markdown?: boolean }) => {
      const client = await connect(flags, output);
      const report = await client.call<RunReport & { request_id: string }>("GET", "/v1/sandbox/report");
      if (flags.json) return output.line(json(report));
      if (flags.markdown) return output.line(reportMarkdown(report).replace(/\n$/, ""));
      for (const line of reportLines(report)) output.line(line);
    });
}

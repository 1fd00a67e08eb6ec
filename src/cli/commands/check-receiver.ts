import { Command, Option } from "commander";
import { terminalText } from "../../domain/terminal-text.js";
import {
  CASE_SPECS,
  DEFAULT_RECEIVER_TIMEOUT_MS,
  parseOnly,
  RECEIVER_CASES,
  summarize,
  warnAfterMs,
  type ReceiverCase,
  type Summary,
  type Verdict,
} from "../../domain/receiver-check.js";
import { runReceiverCheck, type CaseResult } from "../../paysim.js";
import { CliError } from "../client.js";
import { json, paint, table } from "../format.js";
import { consoleOutput, type Output } from "../output.js";
import { sampleIntentEvents } from "../sample-events.js";
import { colourEnabled } from "../../ui/terminal.js";

interface CheckReceiverFlags {
  secret: string;
  timeout?: string;
  only?: string;
  json?: boolean;
}

interface CheckInput {
  url: string;
  secret: string;
  timeoutMs: number;
  cases: ReceiverCase[];
}

/** `paysim check-receiver <url> --secret <whsec_…>`: grades a webhook receiver (docs/webhooks.md); needs no running paysim. */
export function checkReceiverCommand(output: Output = consoleOutput): Command {
  return new Command("check-receiver")
    .description("Send a battery of webhook deliveries to your receiver and grade its answers (no running paysim needed)")
    .argument("<url>", "your webhook receiver, e.g. http://127.0.0.1:3000/webhooks")
    .requiredOption("--secret <whsec_…>", "the signing secret your receiver verifies with")
    .option("--only <case,…>", `run only these cases (${RECEIVER_CASES.join(", ")})`)
    .addOption(
      new Option("--timeout <ms>", "how long the receiver has to answer; a warning from a quarter of it").default(
        String(DEFAULT_RECEIVER_TIMEOUT_MS),
        `${DEFAULT_RECEIVER_TIMEOUT_MS} ms`,
      ),
    )
    .option("--json", "print the results as one JSON document")
    .addHelpText(
      "after",
      `
Cases (each a real payment_intent event of its own intent):
${RECEIVER_CASES.map((name) => `  ${name.padEnd(20)}${CASE_SPECS[name].sent} → expects ${CASE_SPECS[name].expected}`).join("\n")}

An answer at or past --timeout (default 20000 ms, the service's limit) fails its case; one
that takes a quarter of it or more (5 s at the default) is a warning. duplicate passing on
its answers is a warning too: paysim cannot see whether the event was acted on twice.
Once the receiver is unreachable (no connection within --timeout, refused), nothing more
is sent: the cases left are reported as not run.
Exit status: 0 every case passed (warnings allowed), 1 a case failed or a bad argument,
2 nothing answered at the URL.

Examples:
  $ paysim check-receiver http://127.0.0.1:3000/webhooks --secret whsec_…
  $ paysim check-receiver http://127.0.0.1:3000/webhooks --secret whsec_… --only duplicate,out-of-order
  $ paysim check-receiver http://127.0.0.1:3000/webhooks --secret whsec_… --json`,
    )
    .action(async (url: string, flags: CheckReceiverFlags) => {
      const input = checkInput(url, flags);
      const events = await sampleIntentEvents(input.cases.length);
      const outcome = await runReceiverCheck({
        url: input.url,
        secret: input.secret,
        timeoutMs: input.timeoutMs,
        cases: input.cases.map((name, i) => ({ name, events: events[i]! })),
      });
      if ("unreachable" in outcome) {
        throw new CliError(`cannot reach a receiver at ${input.url} (${outcome.unreachable}): is it running, and listening there?`, 2);
      }
      const summary = summarize(outcome.results.map((result) => result.verdict));
      const lines = flags.json ? [json(resultDocument(input, outcome.results, summary))] : resultLines(input, outcome.results, summary);
      for (const line of lines) output.line(line);
      process.exitCode = summary.exitCode;
    });
}

/** The arguments checked before anything is sent: a bad one is exit 1. */
function checkInput(url: string, flags: CheckReceiverFlags): CheckInput {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new CliError(`${JSON.stringify(url)} is not a URL: give your receiver's, e.g. http://127.0.0.1:3000/webhooks.`);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new CliError(`${JSON.stringify(url)} is not an http(s) URL: give your receiver's, e.g. http://127.0.0.1:3000/webhooks.`);
  }
  if (!/^whsec_\S+$/.test(flags.secret)) {
    throw new CliError("--secret must be the endpoint's signing secret, whsec_ followed by its characters.");
  }
  const timeout = flags.timeout ?? String(DEFAULT_RECEIVER_TIMEOUT_MS);
  const timeoutMs = Number(timeout);
  if (!/^\d+$/.test(timeout) || timeoutMs < 1 || timeoutMs > DEFAULT_RECEIVER_TIMEOUT_MS) {
    throw new CliError(`--timeout must be a whole number of milliseconds from 1 to ${DEFAULT_RECEIVER_TIMEOUT_MS}; got ${JSON.stringify(timeout)}.`);
  }
  let cases = [...RECEIVER_CASES];
  if (flags.only !== undefined) {
    const only = parseOnly(flags.only);
    if ("problem" in only) throw new CliError(only.problem);
    cases = only.cases;
  }
  return { url, secret: flags.secret, timeoutMs, cases };
}

const VERDICT_STYLES = { pass: "green", warn: "yellow", FAIL: "red", "not run": "yellow" } as const;

/**
 * The table, a line on each case that did not pass saying what to change, and the summary.
 *
 * @example
 * resultLines({ url: "http://127.0.0.1:3000/webhooks", timeoutMs: 20000 }, results, summarize(results.map((r) => r.verdict)), false);
 */
export function resultLines(
  input: Pick<CheckInput, "url" | "timeoutMs">,
  results: readonly CaseResult[],
  summary: Summary,
  colour = colourEnabled(),
): string[] {
  const paintVerdict = (verdict: string) => paint(verdict, VERDICT_STYLES[verdict as Verdict], colour);
  const lines = table(
    results,
    [
      { header: "CASE", value: (r) => r.case },
      { header: "SENT", value: (r) => r.sent },
      { header: "EXPECTED", value: (r) => r.expected },
      { header: "GOT", value: (r) => r.got },
      { header: "TIME", value: (r) => `${r.durationMs} ms` },
      { header: "VERDICT", value: (r) => r.verdict, paint: paintVerdict },
    ],
    colour,
  );
  const notPassed = results.filter((r) => r.verdict !== "pass");
  if (notPassed.length > 0) lines.push("");
  for (const r of notPassed) {
    lines.push(`${paintVerdict(r.verdict)} ${r.case}: ${terminalText(String(r.reason))}.${r.verdict === "FAIL" ? ` Fix: ${CASE_SPECS[r.case].advice}.` : ""}`);
  }
  const verdict = summary.failed > 0 ? paint("FAIL", "red", colour) : paint("PASS", "green", colour);
  lines.push(
    "",
    `${verdict} ${summary.passed} passed, ${summary.warned} warned, ${summary.failed} failed${summary.notRun > 0 ? `, ${summary.notRun} not run` : ""} of ${summary.total} cases against ${terminalText(input.url)} (limit ${input.timeoutMs} ms, warning from ${warnAfterMs(input.timeoutMs)} ms)`,
  );
  return lines;
}

/** The --json document: no secret in it. */
function resultDocument(input: CheckInput, results: readonly CaseResult[], summary: Summary): object {
  return {
    url: input.url,
    timeout_ms: input.timeoutMs,
    warn_after_ms: warnAfterMs(input.timeoutMs),
    passed: summary.exitCode === 0,
    summary: { passed: summary.passed, warned: summary.warned, failed: summary.failed, not_run: summary.notRun, total: summary.total },
    cases: results.map((r) => ({
      case: r.case,
      sent: r.sent,
      expected: r.expected,
      got: r.got,
      duration_ms: r.durationMs,
      verdict: r.verdict,
      reason: r.reason,
      advice: r.verdict === "FAIL" ? CASE_SPECS[r.case].advice : null,
      answers: r.answers.map((a) => ({ status_code: a.statusCode, error: a.error, duration_ms: a.durationMs })),
    })),
  };
}

import { spawn } from "node:child_process";
import { Command, Option } from "commander";
import { createPaysim, type PaysimInstance } from "../../paysim.js";
import { addServerOptions, paysimOptionsOf, serverFlagsProblem, type ServerFlags } from "../server-options.js";
import { closeWithExport } from "../close-with-export.js";
import { asKept, COVERAGE_FILE, JUNIT_FILE, keptFilesOfFlags, outputFilesProblem, REPORT_FILE, type OutputFile } from "../output-files.js";
import { writeOwnedFile, type FileKind } from "../../shared/owned-file.js";
import { appendRefusal, appendToFile } from "../../shared/appended-file.js";
import type { RunReport } from "../../domain/run-report.js";
import { coverageSummaryLine } from "./coverage.js";
import { FAIL_ON_STATUS, heldConditions, parseFailOn, type FailOnCondition } from "../run-report/fail-on.js";
import { junitXml } from "../run-report/junit.js";
import { reportMarkdown } from "../run-report/markdown.js";
import { findingsWithOccurrencesText } from "../run-report/text.js";
import { consoleOutput, reportInternalError, type Output } from "../output.js";
import { startLinesReporter } from "../reporters/lines.js";
import type { Reporter } from "../reporters/subscribe.js";
import { routeExecSignals, signalStatus, type ExecSignals } from "../exec-signals.js";

interface ExecFlags extends ServerFlags {
  verbose: boolean;
  coverage?: string;
  report?: string;
  junit?: string;
  failOn?: FailOnCondition[];
}

/** Where GitHub Actions reads a step's Markdown summary from; undefined outside it. */
const stepSummaryPath = () => process.env.GITHUB_STEP_SUMMARY || undefined;

export function execCommand(output: Output = consoleOutput): Command {
  return addServerOptions(new Command("exec"), {
    port: 0,
    db: ":memory:",
    dbHelp: 'SQLite file, or ":memory:" for a throwaway run (the default here)',
    stopsWhen: "the command has ended",
    secretKeyHelp:
      "the default company's key (sk_test_…), given to the command as PAYSIM_SECRET_KEY; without it (or a key in --config) each run makes a new one",
    forwardToHelp: "send the run's events to this URL (repeatable); the command gets their signing secret as PAYSIM_WEBHOOK_SECRET",
  })
    .description("Run a command against a paysim started for it, and exit with the command's status")
    .argument("<command...>", "the command and its arguments, after --")
    .addOption(new Option("--verbose", "print paysim's log lines (requests, events, deliveries) on stderr").default(false))
    .addOption(
      new Option(
        "--coverage <file.json>",
        "once the command ends, write the default company's coverage report (docs/testing.md) to this file and print its summary on stderr",
      ),
    )
    .addOption(new Option("--report <file.json>", "once the command ends, write the default company's run report (its coverage and findings) to this file"))
    .addOption(
      new Option(
        "--junit <file.xml>",
        "once the command ends, write the run report as JUnit XML: a testcase per finding code (failed when raised) and per coverage area",
      ),
    )
    .addOption(
      new Option(
        "--fail-on <list>",
        "exit 3 when the command exited 0 but one of these holds (comma-separated): findings, errors, uncovered:<area> (operations, transitions, events, webhooks, errors, faults)",
      ).argParser(parseFailOn),
    )
    .addHelpText(
      "after",
      `
paysim starts first (by default on a free port with an in-memory database); the command
runs once it serves, with PAYSIM_URL and PAYSIM_SECRET_KEY (and, with --forward-to,
PAYSIM_WEBHOOK_SECRET) in its environment, so the other paysim commands inside it find
this server. When the command ends paysim stops, and exec exits with the command's
status (128 + n if signal n ended it). SIGINT, SIGTERM, SIGHUP (a closed terminal),
SIGQUIT, SIGUSR2 and SIGALRM are passed to the command; paysim then waits for it as usual.
Such a signal at any other moment (paysim starting, the files being written) stops exec
with 128 + n; each file is then whole or not written.
If paysim cannot start, the command is not run and exec exits 1. With --export-on-exit,
paysim writes its snapshot after the command ends; if that fails, exec says so and exits 1
when the command itself succeeded. With --coverage, the default company's coverage report
is written to the file once the command ends, whatever its status, and its summary line
printed on stderr; the exit status stays the command's. Each replaces only an earlier file
of its kind that paysim wrote, never the --db, --import or --config file (nor, for
--coverage, the export's): a path refused is said before paysim starts, and exec exits 1.
--report writes the run report (coverage and findings) the same way, --junit the same as
JUnit XML, and both print a findings line on stderr. With --fail-on, a run whose command
exited 0 exits 3 when a named condition holds, and says which; the command's own non-zero
status always wins. With GITHUB_STEP_SUMMARY set (GitHub Actions), a Markdown summary of
the report is appended to that file.

Examples:
  $ paysim exec -- npm test
  $ paysim exec --forward-to http://localhost:3000/webhooks -- npx vitest run
  $ paysim exec --config paysim.config.json --verbose -- node e2e.js
  $ paysim exec --import fixtures/orders.db --export-on-exit after.db -- npm test
  $ paysim exec --coverage coverage.json -- npm test
  $ paysim exec --report report.json --junit report.xml --fail-on errors -- npm test`,
    )
    .action(async (command: string[], flags: ExecFlags) => {
      const status = await runExec(command, flags, output);
      // Exit here rather than once the event loop has drained: while Node.js closes its handles
      // at such an exit, its signal handlers are gone and a signal would end exec by its default
      // action. (stderr, all paysim writes here, is written synchronously.)
      process.exit(status);
    });
}

/** The variables that point the command, and the paysim commands it runs, at this server. */
export function execEnvironment(instance: PaysimInstance): Record<string, string> {
  const env: Record<string, string> = { PAYSIM_URL: instance.url, PAYSIM_SECRET_KEY: instance.secretKey };
  const forwarded = instance.forwardEndpoints[0];
  if (forwarded) env.PAYSIM_WEBHOOK_SECRET = forwarded.secret;
  return env;
}

/** Starts paysim, runs the command against it, stops paysim; returns the command's exit status (1 if paysim could not start). */
async function runExec(command: string[], flags: ExecFlags, output: Output): Promise<number> {
  const problem = serverFlagsProblem(flags);
  if (problem) {
    output.error(`paysim: ${problem}`);
    return 1;
  }
  // Every file the run will write is judged before paysim starts and the command runs.
  const refused = outputFilesProblem(flags, reportFilesOf(flags)) ?? stepSummaryProblem(flags);
  if (refused) {
    output.error(`paysim: ${refused.replace(/\.$/, "")}; the command was not run.`);
    return 1;
  }
  // From here until exec exits, no signal ends it by its default action (exec-signals.ts).
  const signals = routeExecSignals();
  // stdout belongs to the command: paysim's own lines go to stderr, and only when asked for.
  const toStderr: Output = { line: (text) => output.error(text), error: (text) => output.error(text) };
  let reporter: Reporter | undefined;
  let instance: PaysimInstance;
  try {
    instance = await createPaysim({
      ...paysimOptionsOf(flags),
      onInternalError: (requestId, error) => reportInternalError(output, `internal error in ${requestId}`, error),
      onBusReady: (parts) => {
        if (flags.verbose) reporter = startLinesReporter(parts.bus, toStderr, { db: flags.db, host: flags.host, colour: false });
      },
    });
  } catch (error) {
    reporter?.stop();
    output.error(`paysim: ${(error instanceof Error ? error.message : String(error)).replace(/\.$/, "")}; the command was not run.`);
    return signals.received === undefined ? 1 : signalStatus(signals.received);
  }
  reporter?.started(instance);

  // Interrupted: nothing more is begun, and exec exits without waiting for paysim to close.
  const exitInterrupted = (): never => {
    reporter?.stop();
    process.exit(signalStatus(signals.received!));
  };
  if (signals.interrupted.aborted) {
    output.error(`paysim: ${signals.received} received while paysim was starting; the command was not run.`);
    return exitInterrupted();
  }
  let status = await runCommand(command, execEnvironment(instance), output, signals);
  const failed = await writeReports(instance, flags, output, signals.interrupted);
  // The command's own failure always wins; a condition of --fail-on only fails a passing run.
  if (status === 0 && failed.length > 0) {
    output.error(`paysim: --fail-on: ${failed.join("; ")}; exit ${FAIL_ON_STATUS}.`);
    status = FAIL_ON_STATUS;
  }
  const exported = await stopAfterCommand(instance, flags, output, signals);
  if (signals.interrupted.aborted) return exitInterrupted();
  // A signal from here on, with every file written, ends exec at once with its status.
  signals.interrupted.addEventListener("abort", exitInterrupted);
  reporter?.stop();
  // A snapshot that could not be written fails a run that otherwise passed (closeWithExport said why).
  return status === 0 && !exported ? 1 : status;
}

/**
 * Stops paysim once the command has ended, writing the --export-on-exit snapshot; answers whether
 * the snapshot (when asked for) was written. A signal now interrupts the snapshot, which leaves
 * nothing beside its target, and paysim is not waited for: exec exits with the signal's status.
 */
async function stopAfterCommand(instance: PaysimInstance, flags: ExecFlags, output: Output, signals: ExecSignals): Promise<boolean> {
  const stop = closeWithExport(instance, flags.exportOnExit, output);
  const interrupted = new Promise<boolean>((resolve) => {
    const onSignal = () => void stop.interruptExport().finally(() => resolve(false));
    if (signals.interrupted.aborted) onSignal();
    else signals.interrupted.addEventListener("abort", onSignal, { once: true });
  });
  if (signals.interrupted.aborted) return interrupted;
  return Promise.race([
    stop().then(
      () => true,
      () => false,
    ),
    interrupted,
  ]);
}

/** The report files the flags ask for, each with its kind. */
function reportFilesOf(flags: ExecFlags): OutputFile[] {
  const files: OutputFile[] = [];
  if (flags.coverage !== undefined) files.push({ path: flags.coverage, kind: COVERAGE_FILE });
  if (flags.report !== undefined) files.push({ path: flags.report, kind: REPORT_FILE });
  if (flags.junit !== undefined) files.push({ path: flags.junit, kind: JUNIT_FILE });
  return files;
}

/** Why GITHUB_STEP_SUMMARY may not be appended to, as one line naming it; undefined when it may (or is not set). */
function stepSummaryProblem(flags: ExecFlags): string | undefined {
  const path = stepSummaryPath();
  // Nor one of the files exec writes: Markdown appended to the JSON report would spoil it.
  const kept = [...keptFilesOfFlags(flags), ...reportFilesOf(flags).map(asKept)];
  const refusal = path === undefined ? undefined : appendRefusal(path, kept);
  return refusal === undefined ? undefined : `Cannot append the run summary to GITHUB_STEP_SUMMARY ${path}: it ${refusal}.`;
}

/**
 * Once the command has ended: the coverage, run report and JUnit files the flags ask for (each
 * judged again: the command may have put something there), their lines on stderr, and the
 * Markdown summary appended to GITHUB_STEP_SUMMARY. Answers the --fail-on conditions that hold.
 * A file that cannot be written is said and changes no exit status.
 */
async function writeReports(instance: PaysimInstance, flags: ExecFlags, output: Output, interrupted: AbortSignal): Promise<string[]> {
  const summaryPath = stepSummaryPath();
  const findingsAsked = flags.report !== undefined || flags.junit !== undefined || flags.failOn !== undefined;
  if (flags.coverage === undefined && !findingsAsked && summaryPath === undefined) return [];
  const report = instance.report();
  const unwritten: string[] = [];
  const write = async (path: string, kind: FileKind, text: string) => {
    try {
      // Interrupted by a signal: no further file is begun (the one under way removes its temporary file).
      if (interrupted.aborted) throw interrupted.reason;
      await writeOwnedFile(path, kind, () => Buffer.from(text), keptFilesOfFlags(flags), interrupted);
      return true;
    } catch (error) {
      if (interrupted.aborted) unwritten.push(path);
      else output.error(`paysim: ${(error as Error).message}`);
      return false;
    }
  };
  const toJson = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
  if (flags.coverage !== undefined && (await write(flags.coverage, COVERAGE_FILE, toJson(report.coverage)))) {
    output.error(`paysim: ${coverageSummaryLine(report.coverage)} (${flags.coverage})`);
  }
  const written: string[] = [];
  if (flags.report !== undefined && (await write(flags.report, REPORT_FILE, toJson(report)))) written.push(flags.report);
  if (flags.junit !== undefined && (await write(flags.junit, JUNIT_FILE, junitXml(report, flags.failOn ?? [])))) written.push(flags.junit);
  if (findingsAsked) {
    const files = written.length === 0 ? "" : ` (${written.join(", ")})`;
    if (flags.coverage === undefined) output.error(`paysim: ${coverageSummaryLine(report.coverage)}${files}`);
    output.error(`paysim: findings: ${findingsWithOccurrencesText(report)}${files}`);
  }
  if (summaryPath !== undefined) {
    if (interrupted.aborted) unwritten.push(summaryPath);
    else appendStepSummary(summaryPath, report, flags, output);
  }
  if (unwritten.length > 0) output.error(`paysim: interrupted by a signal; not written: ${unwritten.join(", ")}.`);
  return heldConditions(report, flags.failOn ?? []);
}

/** Appends the report's Markdown to GitHub's job summary, keeping what the file held. */
function appendStepSummary(path: string, report: RunReport, flags: ExecFlags, output: Output): void {
  try {
    appendToFile(path, Buffer.from(`\n${reportMarkdown(report)}`), keptFilesOfFlags(flags));
  } catch (error) {
    output.error(`paysim: Cannot append the run summary to GITHUB_STEP_SUMMARY ${path}: it ${(error as Error).message}.`);
  }
}

/**
 * Runs the command with the standard streams inherited and `extraEnv` added, passing on
 * every signal of PASSED_ON; resolves with its exit status, 128 + n if signal n ended it, and 127
 * if it could not be started at all (as a shell does).
 */
function runCommand(command: string[], extraEnv: Record<string, string>, output: Output, signals: ExecSignals): Promise<number> {
  const [file, ...args] = command as [string, ...string[]];
  return new Promise((resolve) => {
    const child = spawn(file, args, { stdio: "inherit", env: { ...process.env, ...extraEnv } });
    signals.passTo(child);
    child.on("error", (error) => {
      output.error(`paysim: could not run ${JSON.stringify(file)}: ${error.message}`);
      resolve(127);
    });
    child.on("exit", (code, signal) => resolve(signal === null ? (code ?? 1) : signalStatus(signal)));
  });
}

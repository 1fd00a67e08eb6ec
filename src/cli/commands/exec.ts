import { spawn } from "node:child_process";
import { constants } from "node:os";
import { Command, Option } from "commander";
import { createPaysim, type PaysimInstance } from "../../paysim.js";
import { addServerOptions, paysimOptionsOf, serverFlagsProblem, type ServerFlags } from "../server-options.js";
import { closeWithExport } from "../close-with-export.js";
import { COVERAGE_FILE, keptFilesOfFlags, outputFilesProblem } from "../output-files.js";
import { writeOwnedFile } from "../../shared/owned-file.js";
import { coverageSummaryLine } from "./coverage.js";
import { consoleOutput, reportInternalError, type Output } from "../output.js";
import { startLinesReporter } from "../reporters/lines.js";
import type { Reporter } from "../reporters/subscribe.js";

interface ExecFlags extends ServerFlags {
  verbose: boolean;
  coverage?: string;
}

/**
 * The signals `exec` passes on to the command rather than dying of: every one whose default would
 * end the process and that Node.js lets a program handle (SIGUSR1 starts Node's debugger; SIGPIPE
 * is ignored by Node). A closed terminal sends SIGHUP; Ctrl-\ sends SIGQUIT.
 */
const PASSED_ON: readonly NodeJS.Signals[] = ["SIGHUP", "SIGINT", "SIGQUIT", "SIGTERM", "SIGUSR2", "SIGALRM"];

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
    .addHelpText(
      "after",
      `
paysim starts first (by default on a free port with an in-memory database); the command
runs once it serves, with PAYSIM_URL and PAYSIM_SECRET_KEY (and, with --forward-to,
PAYSIM_WEBHOOK_SECRET) in its environment, so the other paysim commands inside it find
this server. When the command ends paysim stops, and exec exits with the command's
status (128 + n if signal n ended it). SIGINT, SIGTERM, SIGHUP (a closed terminal),
SIGQUIT, SIGUSR2 and SIGALRM are passed to the command; paysim then waits for it as usual.
If paysim cannot start, the command is not run and exec exits 1. With --export-on-exit,
paysim writes its snapshot after the command ends; if that fails, exec says so and exits 1
when the command itself succeeded. With --coverage, the default company's coverage report
is written to the file once the command ends, whatever its status, and its summary line
printed on stderr; the exit status stays the command's. Each replaces only an earlier file
of its kind that paysim wrote, never the --db, --import or --config file (nor, for
--coverage, the export's): a path refused is said before paysim starts, and exec exits 1.

Examples:
  $ paysim exec -- npm test
  $ paysim exec --forward-to http://localhost:3000/webhooks -- npx vitest run
  $ paysim exec --config paysim.config.json --verbose -- node e2e.js
  $ paysim exec --import fixtures/orders.db --export-on-exit after.db -- npm test
  $ paysim exec --coverage coverage.json -- npm test`,
    )
    .action(async (command: string[], flags: ExecFlags) => {
      process.exitCode = await runExec(command, flags, output);
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
  const refused = outputFilesProblem(flags, flags.coverage === undefined ? [] : [{ path: flags.coverage, kind: COVERAGE_FILE }]);
  if (refused) {
    output.error(`paysim: ${refused.replace(/\.$/, "")}; the command was not run.`);
    return 1;
  }
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
    return 1;
  }
  reporter?.started(instance);

  const status = await runCommand(command, execEnvironment(instance), output);
  if (flags.coverage !== undefined) await writeCoverage(instance, flags.coverage, flags, output);
  const stop = closeWithExport(instance, flags.exportOnExit, output);
  // A signal now, with the command gone, stops the export cleanly and exits at once.
  const interrupted = (signal: NodeJS.Signals) => void stop.interruptExport().finally(() => process.exit(128 + (constants.signals[signal] ?? 0)));
  for (const signal of PASSED_ON) process.on(signal, interrupted);
  // A snapshot that could not be written fails a run that otherwise passed (closeWithExport said why).
  const exported = await stop().then(
    () => true,
    () => false,
  );
  for (const signal of PASSED_ON) process.off(signal, interrupted);
  reporter?.stop();
  return status === 0 && !exported ? 1 : status;
}

/**
 * Writes the default company's coverage report to `path` (judged again: the command may have put
 * something there) and its summary line on stderr. A file that cannot be written is said, and
 * leaves the exit status the command's as well.
 */
async function writeCoverage(instance: PaysimInstance, path: string, flags: ExecFlags, output: Output): Promise<void> {
  const report = instance.coverage();
  try {
    await writeOwnedFile(path, COVERAGE_FILE, () => Buffer.from(`${JSON.stringify(report, null, 2)}\n`), keptFilesOfFlags(flags));
  } catch (error) {
    output.error(`paysim: ${(error as Error).message}`);
    return;
  }
  output.error(`paysim: ${coverageSummaryLine(report)} (${path})`);
}

/**
 * Runs the command with the standard streams inherited and `extraEnv` added, passing on
 * every signal of PASSED_ON; resolves with its exit status, 128 + n if signal n ended it, and 127
 * if it could not be started at all (as a shell does).
 */
function runCommand(command: string[], extraEnv: Record<string, string>, output: Output): Promise<number> {
  const [file, ...args] = command as [string, ...string[]];
  return new Promise((resolve) => {
    const child = spawn(file, args, { stdio: "inherit", env: { ...process.env, ...extraEnv } });
    const passOn = (signal: NodeJS.Signals) => void child.kill(signal);
    for (const signal of PASSED_ON) process.on(signal, passOn);
    const done = (status: number) => {
      for (const signal of PASSED_ON) process.off(signal, passOn);
      resolve(status);
    };
    child.on("error", (error) => {
      output.error(`paysim: could not run ${JSON.stringify(file)}: ${error.message}`);
      done(127);
    });
    child.on("exit", (code, signal) => done(signal === null ? (code ?? 1) : 128 + (constants.signals[signal] ?? 0)));
  });
}

import { Command, Option } from "commander";
import type { Bus } from "../../bus.js";
import { isSecretKey } from "../../domain/secret-keys.js";
import { createPaysim, type PaysimInstance } from "../../paysim.js";
import { addServerOptions, paysimOptionsOf, serverFlagsProblem, type ServerFlags } from "../server-options.js";
import { registerInstance } from "../instance-registration.js";
import { databaseRecordPath, readInstanceFile, recordIsFor, registryProblem } from "../instance-file.js";
import { newInstanceToken } from "../../shared/instance-token.js";
import { consoleOutput, reportInternalError, type Output } from "../output.js";
import { colourEnabled, interactiveTerminal } from "../../ui/terminal.js";
import { bannerFacts } from "../banner-facts.js";
import { closeWithExport, type Stop } from "../close-with-export.js";
import { outputFilesProblem } from "../output-files.js";
import { whenOutputCloses } from "../closed-output.js";
import { startJsonReporter } from "../reporters/json.js";
import { startLinesReporter } from "../reporters/lines.js";
import type { Reporter } from "../reporters/subscribe.js";
import { startLiveFeed, type LiveFeed } from "../../ui/live-feed.js";

interface StartFlags extends ServerFlags {
  ui: boolean;
  json: boolean;
}

export function startCommand(output: Output = consoleOutput): Command {
  return addServerOptions(new Command("start"), {
    port: 7420,
    db: ".paysim/paysim.db",
    dbHelp: 'SQLite file, or ":memory:" for a throwaway run',
    stopsWhen: "stopped by Ctrl-C, SIGTERM, SIGHUP (a closed terminal), SIGQUIT or q",
    secretKeyHelp: "the default company's key (sk_test_…); generated on first start",
    forwardToHelp: "forward this run's events to this URL (repeatable); earlier --forward-to URLs not named again are removed",
  })
    .description("Start the sandbox: the /v1 API, the checkout pages, the dashboard and webhook delivery")
    .addOption(new Option("--no-ui", "print plain log lines instead of the live view").env("PAYSIM_NO_UI"))
    .addOption(new Option("--json", "print one JSON object per line (NDJSON)").env("PAYSIM_JSON").default(false))
    .addHelpText(
      "after",
      `
Every option can also be set as an environment variable PAYSIM_<NAME>, e.g. PAYSIM_PORT=8000.
Run in the background, it is stopped with paysim stop from the same folder (not kill $!,
which after npx paysim start & signals npm's process, not paysim).

Examples:
  $ paysim start
  $ paysim start --port 8000 --forward-to http://localhost:3000/webhooks
  $ paysim start --db :memory: --secret-key sk_test_ci_0001 --no-ui
  $ paysim start --config paysim.config.json
  $ paysim start --db :memory: --import fixtures/orders.db --export-on-exit fixtures/after.db`,
    )
    .action(async (flags: StartFlags) => {
      process.exitCode = await runStart(flags, output);
    });
}

/** Starts paysim, prints where it is, and serves until SIGINT/SIGTERM. Returns the exit code on failure. */
async function runStart(flags: StartFlags, output: Output): Promise<number | undefined> {
  const problem = serverFlagsProblem(flags);
  if (problem) {
    output.error(`paysim: ${problem}`);
    return 1;
  }
  const refused = outputFilesProblem(flags) ?? registryProblem(process.cwd());
  if (refused) {
    output.error(`paysim: ${refused}`);
    return 1;
  }
  const token = newInstanceToken();
  // The key an earlier start generated for this database file (a ":memory:" run has none).
  const recordPath = databaseRecordPath(flags.db);
  const previous = recordPath === undefined ? undefined : readInstanceFile(recordPath);
  const rememberedKey = previous && recordIsFor(previous, flags.db) && isSecretKey(previous.secret_key) ? previous.secret_key : undefined;

  const view = interactiveTerminal(process.stdout) && flags.ui && !flags.json ? "live" : flags.json ? "json" : "lines";
  // Every view listens from before the server answers: what happens during the start (jobs that
  // fell due while paysim was down) and while Ink loads (a first request) is shown too.
  let feed: LiveFeed | undefined;
  let reporter: Reporter | undefined;
  const startReporter = (bus: Bus) => {
    if (view === "json") reporter = startJsonReporter(bus, output, { db: flags.db });
    else reporter = startLinesReporter(bus, output, { db: flags.db, host: flags.host, colour: colourEnabled(process.stdout) });
  };
  let instance: PaysimInstance;
  try {
    instance = await createPaysim({
      ...paysimOptionsOf(flags),
      rememberedSecretKey: rememberedKey,
      instanceToken: token,
      onInternalError: (requestId, error) => reportInternalError(output, `internal error in ${requestId}`, error),
      onBusReady: (parts) => (view === "live" ? void (feed = startLiveFeed(parts)) : startReporter(parts.bus)),
    });
  } catch (error) {
    feed?.stop();
    reporter?.stop();
    // A refused start (a config file or option, the database, the clock) says why in its message.
    if (error instanceof Error) {
      output.error(`paysim: ${error.message}`);
      return 1;
    }
    throw error;
  }

  await registerInstance(instance, flags.db, process.cwd(), token);
  const exportOnExit = closeWithExport(instance, flags.exportOnExit, output);

  if (feed) {
    // The live view handles q and Ctrl-C itself (raw mode); signals from elsewhere quit it the same way.
    // Loaded only for a terminal: Ink takes longer to import than the rest of paysim to start.
    const { renderLiveView } = await import("../../ui/render-live-view.js");
    const live = renderLiveView({ ...instance, close: exportOnExit }, { banner: bannerFacts(instance, { db: flags.db, host: flags.host }), feed });
    let signalled = false;
    const quit = () => {
      if (signalled) return exitAtOnce(exportOnExit);
      signalled = true;
      void live.quit();
    };
    for (const signal of STOP_SIGNALS) process.on(signal, quit);
    void live.waitUntilExit().then(
      () => process.exit(0),
      (error: unknown) => {
        reportInternalError(output, "the live view failed", error);
        process.exit(1);
      },
    );
    return undefined;
  }
  reporter?.started(instance);

  let stopping = false;
  const stop = (signal: NodeJS.Signals | "output closed") => {
    if (stopping) return exitAtOnce(exportOnExit);
    stopping = true;
    // After SIGHUP the terminal is gone, and a closed output has no reader: nothing is left to read the line.
    if (!flags.json && signal !== "SIGHUP" && signal !== "output closed") output.line(`paysim: ${signal} received, stopping…`);
    void exportOnExit().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  for (const signal of STOP_SIGNALS) process.on(signal, stop);
  // `paysim start --json | head -3`: the reader is done, so paysim stops as for a signal, status 0.
  whenOutputCloses(() => stop("output closed"));
  return undefined;
}

/**
 * The signals that stop paysim cleanly (the export written, pending deliveries kept): Ctrl-C,
 * SIGTERM, a closed terminal (SIGHUP) and Ctrl-\ (SIGQUIT), whose default would end paysim with
 * no export at all.
 */
const STOP_SIGNALS: readonly NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT"];

/**
 * A second SIGINT or SIGTERM while stopping: exit now with 130, without waiting for the close.
 * A snapshot being written is interrupted first, and the exit waits only until its temporary file
 * is removed: a half-written copy of the keys and secrets is never left beside the target.
 */
function exitAtOnce(stop: Stop): void {
  void stop.interruptExport().finally(() => process.exit(130));
}

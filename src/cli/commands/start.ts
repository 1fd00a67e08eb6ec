import { Command, InvalidArgumentError, Option } from "commander";
import type { Bus } from "../../bus.js";
import { ConfigError, startInputProblem, type StartInputs } from "../../config.js";
import { isSecretKey } from "../../domain/secret-keys.js";
import { createPaysim, type PaysimInstance } from "../../paysim.js";
import { isTimeScale, TIME_SCALE_RANGE } from "../../runtime/clock.js";
import { NewerDatabaseError } from "../../store/errors.js";
import { registerInstance } from "../instance-registration.js";
import { databaseRecordPath, readInstanceFile, recordIsFor } from "../instance-file.js";
import { consoleOutput, type Output } from "../output.js";
import { colourEnabled, interactiveTerminal } from "../../ui/terminal.js";
import { bannerFacts } from "../banner-facts.js";
import { startJsonReporter } from "../reporters/json.js";
import { startLinesReporter } from "../reporters/lines.js";
import type { Reporter } from "../reporters/subscribe.js";
import { startLiveFeed, type LiveFeed } from "../../ui/live-feed.js";

interface StartFlags {
  port: number;
  host: string;
  db: string;
  secretKey?: string;
  config?: string;
  forwardTo?: string[];
  webhookSecret?: string;
  timeScale: number;
  payouts: "auto" | "manual";
  webhookTimeout: number;
  ui: boolean;
  json: boolean;
  import?: string;
  exportOnExit?: string;
}

function integer(name: string, min: number, max: number) {
  return (raw: string) => {
    const value = Number(raw);
    if (!/^\d+$/.test(raw) || value < min || value > max) throw new InvalidArgumentError(`${name} must be an integer from ${min} to ${max}.`);
    return value;
  };
}

function timeScale(raw: string): number {
  const value = Number(raw);
  if (raw.trim() === "" || !isTimeScale(value)) throw new InvalidArgumentError(`--time-scale must be ${TIME_SCALE_RANGE}, e.g. 60.`);
  return value;
}

function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

export function startCommand(output: Output = consoleOutput): Command {
  return new Command("start")
    .description("Start the sandbox: the /v1 API, the checkout pages and webhook delivery")
    .addOption(new Option("-p, --port <port>", "TCP port (0 picks a free one)").env("PAYSIM_PORT").default(7420).argParser(integer("--port", 0, 65535)))
    .addOption(new Option("--host <host>", "address to listen on").env("PAYSIM_HOST").default("127.0.0.1"))
    .addOption(new Option("--db <path>", 'SQLite file, or ":memory:" for a throwaway run').env("PAYSIM_DB").default(".paysim/paysim.db"))
    .addOption(new Option("--secret-key <key>", "the default company's key (sk_test_…); generated on first start").env("PAYSIM_SECRET_KEY"))
    .addOption(new Option("--config <file>", "JSON file declaring companies, keys and webhook endpoints").env("PAYSIM_CONFIG"))
    .addOption(new Option("--forward-to <url>", "forward this run's events to this URL (repeatable); earlier --forward-to URLs not named again are removed").env("PAYSIM_FORWARD_TO").argParser(collect))
    .addOption(new Option("--webhook-secret <whsec>", "signing secret of the --forward-to endpoints").env("PAYSIM_WEBHOOK_SECRET"))
    .addOption(new Option("--time-scale <n>", "run the clock n times faster than real time").env("PAYSIM_TIME_SCALE").default(1).argParser(timeScale))
    .addOption(new Option("--payouts <mode>", "auto: payouts move by their token's outcome; manual: only when told").env("PAYSIM_PAYOUTS").choices(["auto", "manual"]).default("auto"))
    .addOption(new Option("--webhook-timeout <ms>", "how long a webhook receiver has to answer").env("PAYSIM_WEBHOOK_TIMEOUT").default(20000).argParser(integer("--webhook-timeout", 1, 600000)))
    .addOption(new Option("--import <file>", "start from a copy of this snapshot (the file is only read); --db must be missing or empty").env("PAYSIM_IMPORT"))
    .addOption(new Option("--export-on-exit <file>", "write a snapshot here when stopped by SIGINT, SIGTERM or q").env("PAYSIM_EXPORT_ON_EXIT"))
    .addOption(new Option("--no-ui", "print plain log lines instead of the live view").env("PAYSIM_NO_UI"))
    .addOption(new Option("--json", "print one JSON object per line (NDJSON)").env("PAYSIM_JSON").default(false))
    .addHelpText(
      "after",
      `
Every option can also be set as an environment variable PAYSIM_<NAME>, e.g. PAYSIM_PORT=8000.

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

const FLAG_OF: Record<keyof StartInputs, string> = { secretKey: "--secret-key", webhookSecret: "--webhook-secret", forwardTo: "--forward-to" };

/** Starts paysim, prints where it is, and serves until SIGINT/SIGTERM. Returns the exit code on failure. */
async function runStart(flags: StartFlags, output: Output): Promise<number | undefined> {
  const problem = startInputProblem({ secretKey: flags.secretKey, webhookSecret: flags.webhookSecret, forwardTo: flags.forwardTo });
  if (problem) {
    output.error(`paysim: ${FLAG_OF[problem.input]}${problem.url === undefined ? "" : ` ${JSON.stringify(problem.url)}`} ${problem.rule}.`);
    return 1;
  }
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
      port: flags.port,
      host: flags.host,
      db: flags.db,
      secretKey: flags.secretKey,
      rememberedSecretKey: rememberedKey,
      config: flags.config,
      forwardTo: flags.forwardTo,
      webhookSecret: flags.webhookSecret,
      timeScale: flags.timeScale,
      payouts: flags.payouts,
      webhookTimeout: flags.webhookTimeout,
      importFrom: flags.import,
      onInternalError: (requestId, error) => output.error(`paysim: internal error in ${requestId}: ${(error as Error)?.stack ?? String(error)}`),
      onBusReady: (parts) => (view === "live" ? void (feed = startLiveFeed(parts)) : startReporter(parts.bus)),
    });
  } catch (error) {
    feed?.stop();
    reporter?.stop();
    if (error instanceof ConfigError || error instanceof NewerDatabaseError || error instanceof Error) {
      output.error(`paysim: ${error.message}`);
      return 1;
    }
    throw error;
  }

  await registerInstance(instance, flags.db, process.cwd());
  const exportOnExit = exportBeforeClose(instance, flags.exportOnExit, output);

  if (feed) {
    // The live view handles q and Ctrl-C itself (raw mode); signals from elsewhere quit it the same way.
    // Loaded only for a terminal: Ink takes longer to import than the rest of paysim to start.
    const { renderLiveView } = await import("../../ui/render-live-view.js");
    const live = renderLiveView({ ...instance, close: exportOnExit }, { banner: bannerFacts(instance, { db: flags.db, host: flags.host }), feed });
    let signalled = false;
    const quit = () => {
      if (signalled) process.exit(130);
      signalled = true;
      void live.quit();
    };
    process.on("SIGINT", quit);
    process.on("SIGTERM", quit);
    void live.waitUntilExit().then(
      () => process.exit(0),
      (error: unknown) => {
        output.error(`paysim: the live view failed: ${(error as Error)?.stack ?? String(error)}`);
        process.exit(1);
      },
    );
    return undefined;
  }
  reporter?.started(instance);

  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(130);
    stopping = true;
    if (!flags.json) output.line(`paysim: ${signal} received, stopping…`);
    void exportOnExit().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  return undefined;
}

/**
 * The instance's close, preceded by writing the --export-on-exit snapshot (when given): how every
 * ordinary stop (SIGINT, SIGTERM, q) ends. A crash never comes here. A snapshot that cannot be
 * written is reported, paysim still stops, and the promise rejects (exit 1).
 */
function exportBeforeClose(instance: PaysimInstance, path: string | undefined, output: Output): () => Promise<void> {
  let stopping: Promise<void> | undefined;
  return () =>
    (stopping ??= (async () => {
      if (path === undefined) return instance.close();
      try {
        await instance.snapshot(path);
      } catch (error) {
        output.error(`paysim: ${(error as Error).message}`);
        await instance.close();
        throw error;
      }
      await instance.close();
    })());
}

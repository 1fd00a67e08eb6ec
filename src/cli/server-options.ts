import { InvalidArgumentError, Option, type Command } from "commander";
import { startInputMessage, startInputProblem, type StartInputs } from "../domain/start-inputs.js";
import type { PaysimOptions } from "../paysim.js";
import { isTimeScale, TIME_SCALE_RANGE } from "../domain/time-scale.js";

/**
 * The options that say how a paysim server runs, one definition for every command that starts
 * one (`paysim start`, `paysim exec`): each gets the same flags, environment variables and checks,
 * with its own defaults where they differ.
 */
export interface ServerFlags {
  port: number;
  host: string;
  db: string;
  secretKey?: string;
  config?: string;
  forwardTo?: string[];
  webhookSecret?: string;
  chaos?: string;
  timeScale: number;
  payouts: "auto" | "manual";
  webhookTimeout: number;
  import?: string;
  exportOnExit?: string;
}

/** Where the commands differ: `start` keeps a database and a fixed port, `exec` a throwaway run on a free one. */
export interface ServerDefaults {
  port: number;
  db: string;
  /** Said in `--db`'s help. */
  dbHelp: string;
  /** Said in `--export-on-exit`'s help: the ordinary stops that write the snapshot. */
  stopsWhen: string;
  /** `--secret-key`'s help: where the key comes from when none is given. */
  secretKeyHelp: string;
  /** `--forward-to`'s help: what becomes of the endpoints. */
  forwardToHelp: string;
}

function integer(name: string, min: number, max: number) {
  return (raw: string) => {
    const value = Number(raw);
    if (!/^\d+$/.test(raw) || value < min || value > max) throw new InvalidArgumentError(`it must be an integer from ${min} to ${max}.`);
    return value;
  };
}

/** `--time-scale <n>`: a number in the clock's range, refused in the same words wherever the flag is taken. */
export function timeScale(raw: string): number {
  const value = Number(raw);
  if (raw.trim() === "" || !isTimeScale(value)) throw new InvalidArgumentError(`it must be ${TIME_SCALE_RANGE}, e.g. 60.`);
  return value;
}

/** A repeatable flag's values, in the order given. */
export function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/** Adds the server options to `command`; each can also be set as PAYSIM_<NAME>. */
export function addServerOptions(command: Command, defaults: ServerDefaults): Command {
  return command
    .addOption(
      new Option("-p, --port <port>", "TCP port (0 picks a free one)")
        .env("PAYSIM_PORT")
        .default(defaults.port)
        .argParser(integer("--port", 0, 65535)),
    )
    .addOption(new Option("--host <host>", "address to listen on").env("PAYSIM_HOST").default("127.0.0.1"))
    .addOption(new Option("--db <path>", defaults.dbHelp).env("PAYSIM_DB").default(defaults.db))
    .addOption(new Option("--secret-key <key>", defaults.secretKeyHelp).env("PAYSIM_SECRET_KEY"))
    .addOption(new Option("--config <file>", "JSON file declaring companies, keys and webhook endpoints").env("PAYSIM_CONFIG"))
    .addOption(new Option("--forward-to <url>", defaults.forwardToHelp).env("PAYSIM_FORWARD_TO").argParser(collect))
    .addOption(new Option("--webhook-secret <whsec>", "signing secret of the --forward-to endpoints").env("PAYSIM_WEBHOOK_SECRET"))
    .addOption(
      new Option("--chaos <spec>", "webhook chaos on the --forward-to endpoints, e.g. duplicate=0.2,reorder=0.2,delay=0-3000,seed=42").env("PAYSIM_CHAOS"),
    )
    .addOption(new Option("--time-scale <n>", "run the clock n times faster than real time").env("PAYSIM_TIME_SCALE").default(1).argParser(timeScale))
    .addOption(
      new Option("--payouts <mode>", "auto: payouts move by their token's outcome; manual: only when told")
        .env("PAYSIM_PAYOUTS")
        .choices(["auto", "manual"])
        .default("auto"),
    )
    .addOption(
      new Option("--webhook-timeout <ms>", "how long a webhook receiver has to answer")
        .env("PAYSIM_WEBHOOK_TIMEOUT")
        .default(20000)
        .argParser(integer("--webhook-timeout", 1, 600000)),
    )
    .addOption(new Option("--import <file>", "start from a copy of this snapshot (the file is only read); --db must be missing or empty").env("PAYSIM_IMPORT"))
    .addOption(
      new Option(
        "--export-on-exit <file>",
        `write a snapshot here when ${defaults.stopsWhen}; it replaces only an earlier snapshot, never a database in use or another file`,
      ).env("PAYSIM_EXPORT_ON_EXIT"),
    );
}

const FLAG_OF: Record<keyof StartInputs, string> = {
  secretKey: "--secret-key",
  webhookSecret: "--webhook-secret",
  forwardTo: "--forward-to",
  chaos: "--chaos",
};

/** The message for a key, secret or URL that breaks its rule, naming the flag; undefined when all are fine. */
export function serverFlagsProblem(flags: ServerFlags): string | undefined {
  const problem = startInputProblem({ secretKey: flags.secretKey, webhookSecret: flags.webhookSecret, forwardTo: flags.forwardTo, chaos: flags.chaos });
  return problem && startInputMessage(problem, (input) => FLAG_OF[input]);
}

/** The options of `createPaysim` the flags give. */
export function paysimOptionsOf(
  flags: ServerFlags,
): Pick<
  PaysimOptions,
  "port" | "host" | "db" | "secretKey" | "config" | "forwardTo" | "webhookSecret" | "chaos" | "timeScale" | "payouts" | "webhookTimeout" | "importFrom"
> {
  return {
    port: flags.port,
    host: flags.host,
    db: flags.db,
    secretKey: flags.secretKey,
    config: flags.config,
    forwardTo: flags.forwardTo,
    webhookSecret: flags.webhookSecret,
    chaos: flags.chaos,
    timeScale: flags.timeScale,
    payouts: flags.payouts,
    webhookTimeout: flags.webhookTimeout,
    importFrom: flags.import,
  };
}

import { Command, CommanderError } from "commander";
import { VERSION } from "../version.js";
import { CliError, UsageError } from "./client.js";
import { endQuietlyWhenOutputCloses } from "./closed-output.js";
import { checkReceiverCommand } from "./commands/check-receiver.js";
import { clockCommand } from "./commands/clock.js";
import { endpointsCommand } from "./commands/endpoints.js";
import { envCommand } from "./commands/env.js";
import { execCommand } from "./commands/exec.js";
import { eventsCommand } from "./commands/events.js";
import { faultsCommand } from "./commands/faults.js";
import { fixturesCommand } from "./commands/fixtures.js";
import { instancesCommand } from "./commands/instances.js";
import { payoutsCommand } from "./commands/payouts.js";
import { resetCommand } from "./commands/reset.js";
import { coverageCommand } from "./commands/coverage.js";
import { reportCommand } from "./commands/report.js";
import { startCommand } from "./commands/start.js";
import { stopCommand } from "./commands/stop.js";
import { triggerCommand } from "./commands/trigger.js";
import { consoleOutput, writable, type Output } from "./output.js";

/** The `paysim` program: one command per file under commands/. */
export function buildProgram(output: Output = consoleOutput): Command {
  const program = new Command("paysim")
    .description("A local sandbox of the payment collection and payout service")
    .version(VERSION, "-v, --version")
    .addCommand(startCommand(output))
    .addCommand(stopCommand(output))
    .addCommand(execCommand(output))
    .addCommand(triggerCommand(output))
    .addCommand(fixturesCommand(output))
    .addCommand(eventsCommand(output))
    .addCommand(endpointsCommand(output))
    .addCommand(payoutsCommand(output))
    .addCommand(clockCommand(output))
    .addCommand(resetCommand(output))
    .addCommand(coverageCommand(output))
    .addCommand(reportCommand(output))
    .addCommand(checkReceiverCommand(output))
    .addCommand(faultsCommand(output))
    .addCommand(instancesCommand(output))
    .addCommand(envCommand(output))
    .addHelpText(
      "after",
      `
The commands other than start, stop, exec and check-receiver (env included) find the server through --url/--key, else
PAYSIM_URL/PAYSIM_SECRET_KEY, else the paysim started from this folder (listed in
.paysim/instances/ while it runs; with several, the first started, and they say so).
Exit status: 0 success, 1 a refused request or a bad argument, 2 no server reachable.

Examples:
  $ paysim start
  $ paysim trigger payment_intent.captured
  $ paysim events list --type payment_intent.captured
  $ paysim endpoints add http://localhost:3000/webhooks
  $ paysim clock advance 6h
  $ paysim exec -- npm test
  $ paysim reset
  $ paysim stop`,
    );
  configureAll(program);
  return program;
}

/** `paysim endpoints add`: how a command is named in its errors and in "see … --help". */
function commandPath(command: Command): string {
  const names: string[] = [];
  for (let at: Command | null = command; at; at = at.parent) names.unshift(at.name());
  return names.join(" ");
}

/** The hint under every argument error, in place of the whole help that would scroll it away. */
function seeHelp(command: Command): string {
  return `see ${commandPath(command)} --help`;
}

/**
 * Commander's argument errors in paysim's words, on one line: the value, the rule it breaks and
 * the fix. Commander words them as `error: option '-p, --port <port>' argument 'abc' is invalid.
 * …`, naming the option twice when the parser's message names it too; its "(Did you mean …?)"
 * comes on a line of its own.
 *
 * @example
 * commanderErrorLine("error: option '-p, --port <port>' argument 'abc' is invalid. it must be an integer from 0 to 65535.", "paysim start")
 * // 'paysim start: --port "abc" is invalid: it must be an integer from 0 to 65535.'
 */
export function commanderErrorLine(message: string, path: string): string {
  const text = message.trim().replace(/^error: /, "");
  const [first = "", ...rest] = text.split("\n");
  const guess = /^\(Did you mean (.+)\?\)$/.exec(rest.join(" ").trim())?.[1];
  const didYouMean = guess ? `; did you mean ${guess}?` : ".";
  const flag = (flags: string) => flags.split(/[ ,|]+/).find((part) => part.startsWith("--")) ?? flags.split(/[ ,|]+/)[0]!;
  let line: string;
  let match: RegExpExecArray | null;
  if ((match = /^option '([^']+)' argument '(.*)' is invalid\. ([\s\S]*)$/.exec(first))) {
    line = `${flag(match[1]!)} ${JSON.stringify(match[2])} is invalid: ${match[3]!.replace(/^Allowed choices are /, "it must be one of ")}`;
  } else if ((match = /^option '([^']+)' value '(.*)' from env '([^']+)' is invalid\. ([\s\S]*)$/.exec(first))) {
    line = `${match[3]}=${JSON.stringify(match[2])} (for ${flag(match[1]!)}) is invalid: ${match[4]!.replace(/^Allowed choices are /, "it must be one of ")}`;
  } else if ((match = /^command-argument value '(.*)' is invalid for argument '([^']+)'\. ([\s\S]*)$/.exec(first))) {
    line = `<${match[2]}> ${JSON.stringify(match[1])} is invalid: ${match[3]!.replace(/^Allowed choices are /, "it must be one of ")}`;
  } else if ((match = /^option '([^']+)' argument missing$/.exec(first))) {
    line = `${flag(match[1]!)} needs a value: write ${match[1]!.split(/, /).at(-1)}.`;
  } else if ((match = /^unknown option '([^']+)'$/.exec(first))) {
    line = `unknown option ${match[1]}${didYouMean}`;
  } else if ((match = /^unknown command '([^']+)'$/.exec(first))) {
    line = `unknown command ${JSON.stringify(match[1])}${didYouMean}`;
  } else if ((match = /^missing required argument '([^']+)'$/.exec(first))) {
    line = `the <${match[1]}> argument is missing.`;
  } else if ((match = /^required option '([^']+)' not specified$/.exec(first))) {
    line = `${flag(match[1]!)} is required: write ${match[1]!.split(/, /).at(-1)}.`;
  } else if ((match = /^too many arguments(?: for '[^']+')?\. Expected (\d+) arguments? but got (\d+)\.$/.exec(first))) {
    line = `too many arguments: it takes ${match[1]} and got ${match[2]} (quote a value that holds spaces).`;
  } else {
    line = [first, ...rest].join(" ");
  }
  return `${path}: ${line}`;
}

/**
 * addCommand() does not pass settings down, so every command gets them here: an argument error
 * said in one line and a pointer to the command's help (the help itself stays for --help), and
 * errors thrown to main() rather than process.exit().
 */
function configureAll(command: Command): void {
  command
    .configureOutput({ outputError: (message, write) => write(`${writable(commanderErrorLine(message, commandPath(command)))}\n`) })
    .showHelpAfterError(seeHelp(command))
    .exitOverride();
  for (const sub of command.commands) configureAll(sub);
}

/** Runs the CLI; sets process.exitCode (0, 1 refused/bad argument, 2 no server) instead of exiting. */
export async function main(argv: string[] = process.argv, output: Output = consoleOutput): Promise<void> {
  endQuietlyWhenOutputCloses();
  const program = buildProgram(output);
  // The command whose action runs: a bad argument it finds is said under its name.
  let running: Command | undefined;
  program.hook("preAction", (_program, actionCommand) => {
    running = actionCommand;
  });
  try {
    await program.parseAsync(argv);
  } catch (error) {
    if (error instanceof CommanderError) {
      // Commander has printed the message (and the usage, or the help or version).
      process.exitCode = error.exitCode;
      return;
    }
    if (error instanceof UsageError) {
      const command = running ?? program;
      output.error(`${commandPath(command)}: ${error.message}`);
      output.error(seeHelp(command));
      process.exitCode = error.exitCode;
      return;
    }
    if (error instanceof CliError) {
      output.error(`paysim: ${error.message}`);
      for (const detail of error.details) output.error(detail);
      process.exitCode = error.exitCode;
      return;
    }
    throw error;
  }
}

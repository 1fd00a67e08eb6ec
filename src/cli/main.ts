import { Command, CommanderError } from "commander";
import { VERSION } from "../version.js";
import { CliError } from "./client.js";
import { checkReceiverCommand } from "./commands/check-receiver.js";
import { clockCommand } from "./commands/clock.js";
import { endpointsCommand } from "./commands/endpoints.js";
import { execCommand } from "./commands/exec.js";
import { eventsCommand } from "./commands/events.js";
import { faultsCommand } from "./commands/faults.js";
import { fixturesCommand } from "./commands/fixtures.js";
import { instancesCommand } from "./commands/instances.js";
import { payoutsCommand } from "./commands/payouts.js";
import { resetCommand } from "./commands/reset.js";
import { startCommand } from "./commands/start.js";
import { triggerCommand } from "./commands/trigger.js";
import { consoleOutput, type Output } from "./output.js";

/** The `paysim` program: one command per file under commands/. */
export function buildProgram(output: Output = consoleOutput): Command {
  const program = new Command("paysim")
    .description("A local sandbox of the payment collection and payout service")
    .version(VERSION, "-v, --version")
    .addCommand(startCommand(output))
    .addCommand(execCommand(output))
    .addCommand(triggerCommand(output))
    .addCommand(fixturesCommand(output))
    .addCommand(eventsCommand(output))
    .addCommand(endpointsCommand(output))
    .addCommand(payoutsCommand(output))
    .addCommand(clockCommand(output))
    .addCommand(resetCommand(output))
    .addCommand(checkReceiverCommand(output))
    .addCommand(faultsCommand(output))
    .addCommand(instancesCommand(output))
    .addHelpText(
      "after",
      `
The commands other than start, exec and check-receiver find the server through --url/--key, else
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
  $ paysim reset`,
    );
  configureAll(program);
  return program;
}

/**
 * addCommand() does not pass settings down, so every command gets them here: usage
 * after an argument error, and errors thrown to main() rather than process.exit().
 */
function configureAll(command: Command): void {
  command.showHelpAfterError().exitOverride();
  for (const sub of command.commands) configureAll(sub);
}

/** Runs the CLI; sets process.exitCode (0, 1 refused/bad argument, 2 no server) instead of exiting. */
export async function main(argv: string[] = process.argv, output: Output = consoleOutput): Promise<void> {
  try {
    await buildProgram(output).parseAsync(argv);
  } catch (error) {
    if (error instanceof CommanderError) {
      // Commander has printed the message (and the usage, or the help or version).
      process.exitCode = error.exitCode;
      return;
    }
    if (error instanceof CliError) {
      output.error(`paysim: ${error.message}`);
      process.exitCode = error.exitCode;
      return;
    }
    throw error;
  }
}

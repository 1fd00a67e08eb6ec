import { Command } from "commander";
import { VERSION } from "../version.js";
import { startCommand } from "./commands/start.js";

/** The `paysim` program: one command per file under commands/. */
export function buildProgram(): Command {
  return new Command("paysim")
    .description("A local sandbox of the payment collection and payout service")
    .version(VERSION, "-v, --version")
    .showHelpAfterError()
    .addCommand(startCommand());
}

export async function main(argv: string[] = process.argv): Promise<void> {
  await buildProgram().parseAsync(argv);
}

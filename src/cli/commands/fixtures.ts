import { Command } from "commander";
import { connect, withClientOptions, type ClientFlags } from "../client.js";
import { json } from "../format.js";
import { consoleOutput, type Output } from "../output.js";
import { loadFixture, overrideOption, runSteps, stepsJson, stepTable } from "../steps.js";

interface RunFlags extends ClientFlags {
  override?: string[];
}

export function fixturesCommand(output: Output = consoleOutput): Command {
  const run = withClientOptions(
    new Command("run")
      .description("Run a fixture file of your own: ordered API calls that may refer to earlier responses")
      .argument("<file>", "a JSON fixture file")
      .addOption(overrideOption()),
  )
    .addHelpText(
      "after",
      `
A fixture file lists steps, run in order. \${name.field.sub} in a path or body is
replaced by that field of the response of the earlier step called "name". Each POST
gets a fresh Idempotency-Key unless the step gives "idempotency_key".

  { "steps": [
      { "name": "pi",   "method": "POST", "path": "/v1/payment_intents", "body": { "amount": 1000, "capture_method": "manual" } },
      { "name": "auth", "method": "POST", "path": "/v1/payment_intents/\${pi.id}/authorize", "body": { "payment_method": "pm_card_visa" } } ] }

Examples:
  $ paysim fixtures run checkout.json
  $ paysim fixtures run checkout.json --override pi.body.amount=5000
  $ paysim fixtures run checkout.json --json`,
    )
    .action(async (file: string, flags: RunFlags) => {
      await runFixtureFile(file, flags, output);
    });

  return new Command("fixtures")
    .description("Run fixture files against the running server")
    .addCommand(run)
    .addHelpText(
      "after",
      `
Examples:
  $ paysim fixtures run checkout.json`,
    );
}

async function runFixtureFile(file: string, flags: RunFlags, output: Output): Promise<void> {
  const fixture = loadFixture(file, flags.override);
  const results = await runSteps(fixture, await connect(flags, output), output, flags.json === true);
  if (flags.json) {
    output.line(json({ steps: stepsJson(results) }));
    return;
  }
  for (const line of stepTable(results)) output.line(line);
}

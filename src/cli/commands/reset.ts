import { Command } from "commander";
import { RESET_COUNTED } from "../../domain/resources.js";
import { connect, withClientOptions, type ClientFlags } from "../client.js";
import { fields, json, text } from "../format.js";
import { consoleOutput, type Output } from "../output.js";
import type { ResetResource } from "../api-types.js";

/** The kinds a reset counts, as the resource registry lists them: "payment intents, payouts and events". */
const COUNTED_KINDS = new Intl.ListFormat("en-GB", { type: "conjunction" }).format(RESET_COUNTED.map(({ noun }) => `${noun}s`));

/** `paysim reset`: POST /v1/sandbox/reset for the key's company; no confirmation, it is a sandbox (docs/testing.md). */
export function resetCommand(output: Output = consoleOutput): Command {
  return withClientOptions(new Command("reset").description(`Delete the company's ${COUNTED_KINDS} (keys, endpoints and the clock stay)`))
    .addHelpText(
      "after",
      `
Deletes the ${COUNTED_KINDS}, with their deliveries, idempotency records, fault
rules and scheduled work, of the key's company; other companies are untouched. Asks for no
confirmation: it is a sandbox. Webhook attempts in flight are abandoned. The coverage counts
stay (paysim coverage --clear clears them).

Examples:
  $ paysim reset
  $ paysim reset --json
  $ paysim reset --key sk_test_other_company`,
    )
    .action(async (flags: ClientFlags) => {
      const reset = await (await connect(flags, output)).call<ResetResource>("POST", "/v1/sandbox/reset");
      if (flags.json) return output.line(json(reset));
      output.line("Deleted:");
      // One row for each count the reset answers, as the resource registry lists them.
      const counts = RESET_COUNTED.map(({ collection, noun }): [string, string] => [`${noun}s`, text(reset.deleted?.[collection])]);
      for (const line of fields(counts, "  ")) output.line(line);
    });
}

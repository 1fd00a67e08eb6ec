import { fileURLToPath } from "node:url";
import { Command } from "commander";
import { EVENT_TYPES, isEventType } from "../../domain/events.js";
import { closest } from "../../domain/suggest.js";
import { FIXTURES_DIR } from "../../fixture-data.js";
import { CliError, connect, UsageError, withClientOptions, type ApiClient, type ClientFlags } from "../client.js";
import { fields, json, text } from "../format.js";
import { consoleOutput, type Output } from "../output.js";
import { loadFixture, overrideOption, runSteps, stepsJson, stepTable } from "../steps.js";

interface TriggerFlags extends ClientFlags {
  override?: string[];
}

/** Events are listed newest first; the one just made is near the top. */
const EVENT_SEARCH_LIMIT = 100;

/** The built-in fixture behind `paysim trigger <type>`. */
export function triggerFixturePath(type: string): string {
  return fileURLToPath(new URL(`triggers/${type}.json`, FIXTURES_DIR));
}

export function triggerCommand(output: Output = consoleOutput): Command {
  return withClientOptions(
    new Command("trigger")
      .description("Make the API calls that produce one event on the running server")
      .argument("<event-type>", "the event to produce, e.g. payment_intent.captured (all types below)")
      .addOption(overrideOption()),
  )
    .addHelpText(
      "after",
      `
Each event type is driven by a fixture file in fixtures/triggers/<event-type>.json.
Payout events are reached with explicit sandbox transitions, so they work with
--payouts auto and --payouts manual alike.

Event types:
  ${EVENT_TYPES.join("\n  ")}

Examples:
  $ paysim trigger payment_intent.captured
  $ paysim trigger payment_intent.created --override pi.body.amount=5000 --override pi.body.currency=USD
  $ paysim trigger payout.partially_reversed --override reverse.body.amount=250
  $ paysim trigger payout.failed --json`,
    )
    .action(async (type: string, flags: TriggerFlags) => {
      await runTrigger(type, flags, output);
    });
}

async function runTrigger(type: string, flags: TriggerFlags, output: Output): Promise<void> {
  if (!isEventType(type)) {
    const guess = closest(type, EVENT_TYPES);
    throw new UsageError(
      `${JSON.stringify(type)} is not an event type${guess ? `; did you mean ${guess}?` : "."} The event types are: ${EVENT_TYPES.join(", ")}.`,
    );
  }
  const fixture = loadFixture(triggerFixturePath(type), flags.override);
  const client = await connect(flags, output);
  const results = await runSteps(fixture, client, output, flags.json === true);

  const object = [...results].reverse().find((r) => typeof r.response.id === "string")?.response;
  const event = object ? await findEvent(client, type, object.id as string) : undefined;
  if (!event) {
    throw new CliError(`the calls succeeded but no ${type} event about ${text(object?.id)} was found; an --override may have changed what the steps do.`);
  }

  if (flags.json) {
    output.line(json({ steps: stepsJson(results), event }));
    return;
  }
  for (const line of stepTable(results)) output.line(line);
  output.line("");
  for (const line of fields([["event", `${text(event.id)}  ${text(event.type)}`]])) output.line(line);
}

/** The newest event of `type` whose data is the object the run ended with. */
async function findEvent(client: ApiClient, type: string, objectId: string): Promise<Record<string, unknown> | undefined> {
  const page = await client.call<{ data: Record<string, unknown>[] }>("GET", `/v1/events?type=${encodeURIComponent(type)}&limit=${EVENT_SEARCH_LIMIT}`);
  return page.data.find((event) => (event.data as { id?: unknown } | undefined)?.id === objectId);
}

import { Command, InvalidArgumentError, Option } from "commander";
import { chaosSpecText, parseChaosSpec, type Chaos } from "../../domain/chaos.js";
import { connect, withClientOptions, type ClientFlags } from "../client.js";
import { fields, json, table, text } from "../format.js";
import { wholeList } from "../whole-list.js";
import { consoleOutput, type Output } from "../output.js";
import type { Endpoint } from "../api-types.js";

interface AddFlags extends ClientFlags {
  events?: string[];
  chaos?: Chaos;
}

/** `--chaos duplicate=0.2,…`: read as `paysim start --chaos` reads it, refused with the same words. */
function chaosSpec(raw: string): Chaos {
  const parsed = parseChaosSpec(raw);
  if ("problem" in parsed) throw new InvalidArgumentError(`${parsed.problem}.`);
  return parsed.chaos;
}

/** An endpoint's chaos as a `--chaos` spec, or "—" for none. */
const chaosColumn = (endpoint: Endpoint) => (endpoint.chaos ? chaosSpecText(endpoint.chaos) : "—");

/** `--events a,b`: the server checks the types, as for any API call. */
function eventList(raw: string): string[] {
  return raw.split(",").map((type) => type.trim());
}

export function endpointsCommand(output: Output = consoleOutput): Command {
  const list = withClientOptions(new Command("list").description("List the webhook endpoints, oldest first"))
    .addHelpText(
      "after",
      `
Examples:
  $ paysim endpoints list
  $ paysim endpoints list --json`,
    )
    .action(async (flags: ClientFlags) => {
      const page = await wholeList<Endpoint>(await connect(flags, output), "/v1/webhook_endpoints");
      const credentials = secretsOf(page.data);
      if (flags.json) return output.line(json(page), credentials);
      if (page.data.length === 0) return output.line("No webhook endpoints.");
      for (const line of endpointTable(page.data)) output.line(line, credentials);
    });

  const add = withClientOptions(
    new Command("add")
      .description("Register a webhook endpoint; prints its id and signing secret")
      .argument("<url>", "the http:// or https:// address that receives the events")
      .addOption(new Option("--events <types>", 'comma-separated event types it receives (default "*": all)').argParser(eventList))
      .addOption(
        new Option("--chaos <spec>", "webhook chaos on it, e.g. duplicate=0.2,reorder=0.2,delay=0-3000,seed=42 (docs/webhooks.md#chaos)").argParser(chaosSpec),
      ),
  )
    .addHelpText(
      "after",
      `
Examples:
  $ paysim endpoints add http://localhost:3000/webhooks
  $ paysim endpoints add http://localhost:3000/payouts --events payout.succeeded,payout.failed
  $ paysim endpoints add http://localhost:3000/webhooks --chaos duplicate=0.3,reorder=0.2,seed=7
  $ paysim endpoints add http://localhost:3000/webhooks --json`,
    )
    .action(async (url: string, flags: AddFlags) => {
      const body = {
        url,
        ...(flags.events === undefined ? {} : { enabled_events: flags.events }),
        ...(flags.chaos === undefined ? {} : { chaos: flags.chaos }),
      };
      const endpoint = await (await connect(flags, output)).call<Endpoint>("POST", "/v1/webhook_endpoints", { body });
      const credentials = secretsOf([endpoint]);
      if (flags.json) return output.line(json(endpoint), credentials);
      for (const line of endpointDetail(endpoint)) output.line(line, credentials);
    });

  const remove = withClientOptions(
    new Command("remove").description("Delete a webhook endpoint: its pending deliveries stop").argument("<we_id>", "the endpoint's id"),
  )
    .addHelpText(
      "after",
      `
Examples:
  $ paysim endpoints remove we_3kTq0cXbVd9pHnRw2LmYs4Ae`,
    )
    .action(async (id: string, flags: ClientFlags) => {
      const answer = await (await connect(flags, output)).call<{ id?: string }>("DELETE", `/v1/webhook_endpoints/${encodeURIComponent(id)}`);
      if (flags.json) return output.line(json(answer));
      output.line(`Removed ${text(answer.id ?? id)}: its pending deliveries stop.`);
    });

  return new Command("endpoints")
    .description("The webhook endpoints of the company whose key is used")
    .addCommand(list)
    .addCommand(add)
    .addCommand(remove)
    .addHelpText(
      "after",
      `
Endpoints made with paysim start --forward-to are removed by a later start that
does not name their URL; those made here or in a config file stay until removed.

Examples:
  $ paysim endpoints list
  $ paysim endpoints add http://localhost:3000/webhooks --events payment_intent.captured
  $ paysim endpoints remove we_3kTq0cXbVd9pHnRw2LmYs4Ae`,
    );
}

/** The endpoints' signing secrets: handed back to their owner, printed exactly (docs/guarantees.md). */
function secretsOf(endpoints: readonly Endpoint[]): string[] {
  return endpoints.flatMap((endpoint) => (typeof endpoint.secret === "string" ? [endpoint.secret] : []));
}

function endpointTable(endpoints: readonly Endpoint[]): string[] {
  return table(endpoints, [
    { header: "ID", value: (e) => text(e.id) },
    { header: "URL", value: (e) => text(e.url) },
    { header: "EVENTS", value: (e) => (Array.isArray(e.enabled_events) ? e.enabled_events.join(",") : "—") },
    { header: "SECRET", value: (e) => text(e.secret) },
    { header: "CHAOS", value: chaosColumn },
    { header: "CREATED", value: (e) => text(e.created_at) },
  ]);
}

function endpointDetail(endpoint: Endpoint): string[] {
  return fields([
    ["id", text(endpoint.id)],
    ["url", text(endpoint.url)],
    ["events", Array.isArray(endpoint.enabled_events) ? endpoint.enabled_events.join(",") : "—"],
    ["secret", text(endpoint.secret)],
    ["chaos", chaosColumn(endpoint)],
    ["created_at", text(endpoint.created_at)],
  ]);
}

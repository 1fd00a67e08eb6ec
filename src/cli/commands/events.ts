import { Command } from "commander";
import { connect, withClientOptions, type ClientFlags } from "../client.js";
import { terminalText } from "../../domain/terminal-text.js";
import { fields, json, paintStatus, table, text } from "../format.js";
import { consoleOutput, type Output } from "../output.js";
import type { Delivery, EventResource, EventWithDeliveries, ListPage } from "../api-types.js";

interface ListFlags extends ClientFlags {
  type?: string;
  limit?: string;
  startingAfter?: string;
}

/** An event as a list shows it, or with its deliveries as a read by id shows it. */
type Event = EventResource & { deliveries?: Delivery[] };

/** How much of a receiver's answer the table shows, on one line; `--json` has all that was kept. */
const RESPONSE_SHOWN = 60;

/** A receiver's answer on one line: whitespace and control characters as single spaces, cut with "…". */
function responseText(body: string | null | undefined): string {
  if (typeof body !== "string") return "—";
  const flat = body.replace(/[\s\p{Cc}]+/gu, " ").trim();
  if (flat === "") return "(empty)";
  return flat.length > RESPONSE_SHOWN ? `${flat.slice(0, RESPONSE_SHOWN - 1)}…` : flat;
}

export function eventsCommand(output: Output = consoleOutput): Command {
  const list = withClientOptions(
    new Command("list")
      .description("List events, newest first")
      .option("--type <event-type>", "only events of this type, e.g. payout.failed")
      .option("--limit <n>", "how many, 1 to 100 (default 10)")
      .option("--starting-after <evt_id>", "the page after this event (the next older ones)"),
  )
    .addHelpText(
      "after",
      `
Examples:
  $ paysim events list
  $ paysim events list --type payment_intent.captured --limit 50
  $ paysim events list --starting-after evt_3kTq0cXbVd9pHnRw2LmYs4Ae
  $ paysim events list --json`,
    )
    .action(async (flags: ListFlags) => {
      const query = new URLSearchParams();
      if (flags.type !== undefined) query.set("type", flags.type);
      if (flags.limit !== undefined) query.set("limit", flags.limit);
      if (flags.startingAfter !== undefined) query.set("starting_after", flags.startingAfter);
      const page = await (await connect(flags, output)).call<ListPage<Event>>("GET", `/v1/events${query.size > 0 ? `?${query}` : ""}`);
      if (flags.json) return output.line(json(page));
      if (page.data.length === 0) return output.line("No events.");
      for (const line of eventTable(page.data)) output.line(line);
      const last = page.data[page.data.length - 1];
      if (page.has_more === true && last !== undefined) {
        output.line("");
        output.line(`More events: ${terminalText(nextPageCommand(flags, text(last.id)))}`);
      }
    });

  const show = withClientOptions(
    new Command("show").description("Show one event with its webhook deliveries and their attempts").argument("<evt_id>", "the event's id"),
  )
    .addHelpText(
      "after",
      `
Examples:
  $ paysim events show evt_3kTq0cXbVd9pHnRw2LmYs4Ae
  $ paysim events show evt_3kTq0cXbVd9pHnRw2LmYs4Ae --json`,
    )
    .action(async (id: string, flags: ClientFlags) => {
      const event = await (await connect(flags, output)).call<Event>("GET", `/v1/events/${encodeURIComponent(id)}`);
      if (flags.json) return output.line(json(event));
      for (const line of eventDetail(event)) output.line(line);
    });

  const resend = withClientOptions(
    new Command("resend").description("Deliver an event again to every webhook endpoint that listens to its type now").argument("<evt_id>", "the event's id"),
  )
    .addHelpText(
      "after",
      `
Examples:
  $ paysim events resend evt_3kTq0cXbVd9pHnRw2LmYs4Ae
  $ paysim events resend evt_3kTq0cXbVd9pHnRw2LmYs4Ae --json`,
    )
    .action(async (id: string, flags: ClientFlags) => {
      const client = await connect(flags, output);
      const path = `/v1/events/${encodeURIComponent(id)}`;
      // The answer lists every delivery the event ever had: the ones this resend made are those not there before.
      const before = await client.call<Event>("GET", path);
      const known = new Set(deliveriesIn(before).map((delivery) => delivery.id));
      const answer = await client.call<EventWithDeliveries>("POST", `${path}/resend`);
      if (flags.json) return output.line(json(answer));
      const made = deliveriesIn(answer).filter((delivery) => !known.has(delivery.id));
      for (const line of resendLines(text(answer.id ?? id), text(answer.type), made)) output.line(line);
    });

  return new Command("events")
    .description("The events paysim emitted or received, and their webhook deliveries")
    .addCommand(list)
    .addCommand(show)
    .addCommand(resend)
    .addHelpText(
      "after",
      `
Examples:
  $ paysim events list --type payout.failed
  $ paysim events show evt_3kTq0cXbVd9pHnRw2LmYs4Ae
  $ paysim events resend evt_3kTq0cXbVd9pHnRw2LmYs4Ae`,
    );
}

/** The same listing, one page further: the filters given, and the last event shown as the cursor. */
function nextPageCommand(flags: ListFlags, lastId: string): string {
  const words = ["paysim events list"];
  if (flags.type !== undefined) words.push(`--type ${flags.type}`);
  if (flags.limit !== undefined) words.push(`--limit ${flags.limit}`);
  words.push(`--starting-after ${lastId}`);
  return words.join(" ");
}

function deliveriesIn(event: Event): Delivery[] {
  return Array.isArray(event.deliveries) ? event.deliveries : [];
}

/** What a resend did: nothing when no endpoint listens to the event's type, else one delivery per endpoint. */
function resendLines(eventId: string, type: string, made: readonly Delivery[]): string[] {
  if (made.length === 0) {
    return [
      `Nothing resent: no webhook endpoint listens to ${type}, so ${eventId} has nowhere to go.`,
      "Add one with `paysim start --forward-to <url>` or POST /v1/webhook_endpoints.",
    ];
  }
  const count = made.length === 1 ? "1 endpoint" : `${made.length} endpoints`;
  return [`Resent ${eventId}: a new delivery to ${count}.`, "deliveries", ...deliveryLines(made)];
}

function eventTable(events: readonly Event[]): string[] {
  return table(events, [
    { header: "ID", value: (e) => text(e.id) },
    { header: "TYPE", value: (e) => text(e.type) },
    { header: "OBJECT", value: (e) => text(e.data?.id) },
    { header: "CREATED", value: (e) => text(e.created_at) },
  ]);
}

function eventDetail(event: Event): string[] {
  const lines = fields([
    ["id", text(event.id)],
    ["type", text(event.type)],
    ["created_at", text(event.created_at)],
    ["request_id", text(event.request_id)],
  ]);
  lines.push(
    "",
    "data",
    ...json(event.data ?? null)
      .split("\n")
      .map((line) => `  ${line}`),
    "",
  );
  const deliveries = Array.isArray(event.deliveries) ? event.deliveries : [];
  if (deliveries.length === 0) lines.push("deliveries  none");
  else lines.push("deliveries", ...deliveryLines(deliveries));
  return lines;
}

/** Each delivery, then its attempts as a table indented under it. */
function deliveryLines(deliveries: readonly Delivery[]): string[] {
  const lines: string[] = [];
  for (const delivery of deliveries) {
    lines.push(`  ${text(delivery.endpoint_id)}  ${text(delivery.url)}  ${paintStatus(text(delivery.status))}  next attempt ${text(delivery.next_attempt_at)}`);
    const attempts = delivery.attempts ?? [];
    if (attempts.length === 0) {
      lines.push("    no attempts yet");
      continue;
    }
    const rows = table(attempts, [
      { header: "ATTEMPTED AT", value: (a) => text(a.attempted_at) },
      { header: "HTTP", value: (a) => text(a.status_code) },
      { header: "DURATION", value: (a) => (typeof a.duration_ms === "number" ? `${a.duration_ms} ms` : "—") },
      { header: "ERROR", value: (a) => text(a.error) },
      { header: "CHAOS", value: (a) => text(a.chaos) },
      { header: "RESPONSE", value: (a) => responseText(a.response_body) },
    ]);
    lines.push(...rows.map((row) => `    ${row}`));
  }
  return lines;
}

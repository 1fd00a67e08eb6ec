import { Command } from "commander";
import { connect, withClientOptions, type ClientFlags } from "../client.js";
import { fields, json, paintStatus, table, text } from "../format.js";
import { consoleOutput, type Output } from "../output.js";

interface ListFlags extends ClientFlags {
  type?: string;
  limit?: string;
}

type Event = Record<string, unknown> & { data?: Record<string, unknown>; deliveries?: Delivery[] };

interface Delivery {
  endpoint_id?: string;
  url?: string;
  status?: string;
  next_attempt_at?: string | null;
  attempts?: { attempted_at?: string; status_code?: number | null; error?: string | null; duration_ms?: number }[];
}

export function eventsCommand(output: Output = consoleOutput): Command {
  const list = withClientOptions(
    new Command("list")
      .description("List events, newest first")
      .option("--type <event-type>", "only events of this type, e.g. payout.failed")
      .option("--limit <n>", "how many, 1 to 100 (default 10)"),
  )
    .addHelpText(
      "after",
      `
Examples:
  $ paysim events list
  $ paysim events list --type payment_intent.captured --limit 50
  $ paysim events list --json`,
    )
    .action(async (flags: ListFlags) => {
      const query = new URLSearchParams();
      if (flags.type !== undefined) query.set("type", flags.type);
      if (flags.limit !== undefined) query.set("limit", flags.limit);
      const page = await (await connect(flags, output)).call<{ data: Event[] }>("GET", `/v1/events${query.size > 0 ? `?${query}` : ""}`);
      if (flags.json) return output.line(json(page));
      if (page.data.length === 0) return output.line("No events.");
      for (const line of eventTable(page.data)) output.line(line);
    });

  const show = withClientOptions(new Command("show").description("Show one event with its webhook deliveries and their attempts").argument("<evt_id>", "the event's id"))
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
    new Command("resend").description("Deliver an event again to every enabled webhook endpoint").argument("<evt_id>", "the event's id"),
  )
    .addHelpText(
      "after",
      `
Examples:
  $ paysim events resend evt_3kTq0cXbVd9pHnRw2LmYs4Ae
  $ paysim events resend evt_3kTq0cXbVd9pHnRw2LmYs4Ae --json`,
    )
    .action(async (id: string, flags: ClientFlags) => {
      const answer = await (await connect(flags, output)).call<Event>("POST", `/v1/events/${encodeURIComponent(id)}/resend`);
      if (flags.json) return output.line(json(answer));
      output.line(`Resent ${text(answer.id ?? id)}: a new delivery to every enabled endpoint.`);
      if (Array.isArray(answer.deliveries) && answer.deliveries.length > 0) {
        for (const line of ["deliveries", ...deliveryLines(answer.deliveries)]) output.line(line);
      }
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
  lines.push("", "data", ...json(event.data ?? null).split("\n").map((line) => `  ${line}`), "");
  const deliveries = Array.isArray(event.deliveries) ? event.deliveries : [];
  if (deliveries.length === 0) lines.push("deliveries  none");
  else lines.push("deliveries", ...deliveryLines(deliveries));
  return lines;
}

/** Each delivery, then its attempts as a table indented under it. */
function deliveryLines(deliveries: readonly Delivery[]): string[] {
  const lines: string[] = [];
  for (const delivery of deliveries) {
    lines.push(
      `  ${text(delivery.endpoint_id)}  ${text(delivery.url)}  ${paintStatus(text(delivery.status))}  next attempt ${text(delivery.next_attempt_at)}`,
    );
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
    ]);
    lines.push(...rows.map((row) => `    ${row}`));
  }
  return lines;
}

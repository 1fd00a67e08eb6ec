import { beforeAll, describe, expect, it } from "vitest";
import { suiteScope, usePaysim } from "../helpers/disposables.js";
import { createIntent, type TestPaysim } from "../helpers/paysim.js";
import { runCli } from "../helpers/cli.js";

describe("paysim events", () => {
  const thisSuite = suiteScope();
  let paysim: TestPaysim;
  let intent: any;
  beforeAll(async () => {
    paysim = await usePaysim({}, thisSuite);
    intent = await createIntent(paysim, { amount: 1200, capture_method: "manual" });
    await paysim.api("POST", `/v1/payment_intents/${intent.id}/authorize`, { body: {} });
  });

  const cli = (...args: string[]) => runCli([...args, "--url", paysim.url, "--key", paysim.secretKey]);

  it("lists events newest first in aligned columns", async () => {
    const { code, stdout } = await cli("events", "list");
    expect(code).toBe(0);
    const lines = stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^ID {2,}TYPE {2,}OBJECT {2,}CREATED$/);
    expect(lines.slice(1).map((l) => l.split(/\s+/).slice(1, 3))).toEqual([
      ["payment_intent.authorized", intent.id],
      ["payment_intent.created", intent.id],
    ]);
    // Columns line up: every TYPE cell starts where the header's does.
    const typeColumn = lines[0]!.indexOf("TYPE");
    for (const line of lines.slice(1)) expect(line.indexOf("payment_intent.")).toBe(typeColumn);
  });

  it("filters by --type and caps with --limit, and prints the list's JSON with --json", async () => {
    const byType = await cli("events", "list", "--type", "payment_intent.created", "--json");
    expect(byType.code).toBe(0);
    const page = JSON.parse(byType.stdout);
    expect(page.object).toBe("list");
    expect(page.data.map((e: any) => e.type)).toEqual(["payment_intent.created"]);

    const limited = JSON.parse((await cli("events", "list", "--limit", "1", "--json")).stdout);
    expect(limited.data.map((e: any) => e.type)).toEqual(["payment_intent.authorized"]);
    expect(limited.has_more).toBe(true);
  });

  it("says when more events exist, and the command that shows them, which then does", async () => {
    const first = await cli("events", "list", "--limit", "1");
    expect(first.code).toBe(0);
    const newest = first.stdout.split("\n")[1]!.split(/\s+/)[0]!;
    expect(newest).toMatch(/^evt_/);
    expect(first.stdout).toMatch(new RegExp(`\n\nMore events: paysim events list --limit 1 --starting-after ${newest}\n$`));

    const next = await cli("events", "list", "--limit", "1", "--starting-after", newest);
    expect(next.code).toBe(0);
    const lines = next.stdout.trimEnd().split("\n");
    expect(lines.slice(1).map((l) => l.split(/\s+/).slice(1, 3))).toEqual([["payment_intent.created", intent.id]]);
    // The last page says nothing more.
    expect(next.stdout).not.toContain("More events");
  });

  it("keeps --type in the next page's command", async () => {
    const second = await createIntent(paysim, { amount: 1300 });
    const first = await cli("events", "list", "--type", "payment_intent.created", "--limit", "1");
    expect(first.code).toBe(0);
    expect(first.stdout.split("\n")[1]).toContain(second.id);
    const newest = first.stdout.split("\n")[1]!.split(/\s+/)[0]!;
    expect(first.stdout).toMatch(new RegExp(`\nMore events: paysim events list --type payment_intent.created --limit 1 --starting-after ${newest}\n$`));

    const next = await cli("events", "list", "--type", "payment_intent.created", "--limit", "1", "--starting-after", newest);
    expect(
      next.stdout
        .trimEnd()
        .split("\n")
        .slice(1)
        .map((l) => l.split(/\s+/).slice(1, 3)),
    ).toEqual([["payment_intent.created", intent.id]]);
  });

  it("refuses --starting-after naming no event of the list with the server's error", async () => {
    const { code, stdout, stderr } = await cli("events", "list", "--starting-after", "evt_UnknownUnknownUnknown00");
    expect(code).toBe(1);
    expect(stdout).toBe("");
    expect(stderr).toMatch(/^paysim: invalid_request: .+ \(param: starting_after\)\n$/);
  });

  it("says so when there are no events of a type", async () => {
    const { code, stdout } = await cli("events", "list", "--type", "payout.returned");
    expect(code).toBe(0);
    expect(stdout).toBe("No events.\n");
  });

  it.each([
    [["--type", "payment_intent.paid"], /^paysim: invalid_request: .+ \(param: type\)\n$/],
    [["--limit", "1000"], /^paysim: invalid_request: .+ \(param: limit\)\n$/],
  ])("refuses %j with the server's code and message", async (flags, message) => {
    const { code, stdout, stderr } = await cli("events", "list", ...flags);
    expect(code).toBe(1);
    expect(stdout).toBe("");
    expect(stderr).toMatch(message);
  });

  it("shows one event with its data and deliveries", async () => {
    const list = JSON.parse((await cli("events", "list", "--type", "payment_intent.authorized", "--json")).stdout);
    const event = list.data[0];
    const { code, stdout } = await cli("events", "show", event.id);
    expect(code).toBe(0);
    expect(stdout).toContain(`id          ${event.id}\n`);
    expect(stdout).toContain("type        payment_intent.authorized\n");
    expect(stdout).toContain(`request_id  ${event.request_id}\n`);
    expect(stdout).toContain(`    "id": "${intent.id}",\n`);
    expect(stdout).toContain('    "state": "authorized",\n');
    expect(stdout).toMatch(/\ndeliveries {2}none\n$/);

    const json = JSON.parse((await cli("events", "show", event.id, "--json")).stdout);
    expect(json).toMatchObject({ id: event.id, type: "payment_intent.authorized", deliveries: [] });
  });

  it("resend with no webhook endpoint says that nothing was delivered, and makes no delivery", async () => {
    const list = JSON.parse((await cli("events", "list", "--type", "payment_intent.created", "--json")).stdout);
    const event = list.data[0];
    const { code, stdout, stderr } = await cli("events", "resend", event.id);
    expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
    expect(stdout).toBe(
      `Nothing resent: no webhook endpoint listens to payment_intent.created, so ${event.id} has nowhere to go.\n` +
        "Add one with `paysim start --forward-to <url>` or POST /v1/webhook_endpoints.\n",
    );
    const shown = JSON.parse((await cli("events", "show", event.id, "--json")).stdout);
    expect(shown.deliveries).toEqual([]);
  });

  it("refuses an unknown event id with not_found", async () => {
    for (const command of ["show", "resend"]) {
      const { code, stderr } = await cli("events", command, "evt_UnknownUnknownUnknown00");
      expect(code).toBe(1);
      expect(stderr).toMatch(/^paysim: not_found: .*evt_UnknownUnknownUnknown00/);
    }
  });

  it("refuses a missing event id with the usage", async () => {
    const { code, stderr } = await runCli(["events", "show"]);
    expect(code).toBe(1);
    expect(stderr).toBe("paysim events show: the <evt_id> argument is missing.\nsee paysim events show --help\n");
  });
});

import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { runCli } from "../helpers/cli.js";

const VERSION = (JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string }).version;

describe("the paysim program", () => {
  it.each([
    [["trigger"], "paysim trigger payment_intent.captured"],
    [["fixtures"], "paysim fixtures run checkout.json"],
    [["fixtures", "run"], "paysim fixtures run checkout.json --override pi.body.amount=5000"],
    [["events"], "paysim events list --type payout.failed"],
    [["events", "list"], "paysim events list --type payment_intent.captured --limit 50"],
    [["events", "show"], "paysim events show evt_"],
    [["events", "resend"], "paysim events resend evt_"],
    [["payouts"], "paysim payouts transition po_"],
    [["payouts", "transition"], "paysim payouts transition po_3kTq0cXbVd9pHnRw2LmYs4Ae partially_reversed --amount 250"],
    [["endpoints"], "paysim endpoints add http://localhost:3000/webhooks --events payment_intent.captured"],
    [["endpoints", "list"], "paysim endpoints list --json"],
    [["endpoints", "add"], "paysim endpoints add http://localhost:3000/payouts --events payout.succeeded,payout.failed"],
    [["endpoints", "remove"], "paysim endpoints remove we_3kTq0cXbVd9pHnRw2LmYs4Ae"],
    [["clock"], "paysim clock advance 6h"],
    [["clock", "show"], "paysim clock show --json"],
    [["clock", "advance"], "paysim clock advance 90s"],
    [["faults"], "paysim faults add lost_response --method POST --path /v1/payment_intents"],
    [["faults", "add"], "paysim faults add server_error --path /v1/payment_intents/*/capture --times 2"],
    [["faults", "list"], "paysim faults list --json"],
    [["faults", "remove"], "paysim faults remove flt_3kTq0cXbVd9pHnRw2LmYs4Ae"],
    [["faults", "clear"], "paysim faults clear"],
    [[], "paysim trigger payment_intent.captured"],
  ])("paysim %j --help shows usage and examples", async (command, example) => {
    const { code, stdout } = await runCli([...command, "--help"]);
    expect(code).toBe(0);
    expect(stdout).toContain(`Usage: paysim${command.length ? ` ${command.join(" ")}` : ""} `);
    expect(stdout).toContain("Examples:\n");
    expect(stdout).toContain(`$ ${example}`);
  });

  it("prints its version", async () => {
    const { code, stdout } = await runCli(["--version"]);
    expect(code).toBe(0);
    expect(stdout).toBe(`${VERSION}\n`);
  });

  it.each([
    [["launch"], "error: unknown command 'launch'"],
    [["events", "delete"], "error: unknown command 'delete'"],
    [["clock", "advance", "6h", "7h"], "error: too many arguments for 'advance'"],
    [["events", "list", "--colour"], "error: unknown option '--colour'"],
    [["events", "list", "--limit"], "error: option '--limit <n>' argument missing"],
  ])("exits 1 with the usage for %j", async (args, message) => {
    const { code, stdout, stderr } = await runCli(args);
    expect(code).toBe(1);
    expect(stdout).toBe("");
    expect(stderr).toContain(message);
    expect(stderr).toContain("Usage: paysim");
  });

  it("exits 1 with the help when no command is given", async () => {
    const { code, stderr } = await runCli([]);
    expect(code).toBe(1);
    expect(stderr).toContain("Usage: paysim [options] [command]");
  });
});

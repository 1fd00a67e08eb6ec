import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { EVENT_TYPES } from "../../src/domain/events.js";
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

  // One line naming the value, the rule and the fix, then where the help is: never the whole help,
  // which would scroll the error out of sight.
  it.each([
    [["launch"], 'paysim: unknown command "launch".', "paysim"],
    [["statr"], 'paysim: unknown command "statr"; did you mean start?', "paysim"],
    [["events", "delete"], 'paysim events: unknown command "delete".', "paysim events"],
    [
      ["clock", "advance", "6h", "7h"],
      "paysim clock advance: too many arguments: it takes 1 and got 2 (quote a value that holds spaces).",
      "paysim clock advance",
    ],
    [["clock", "advance", "6x"], 'paysim clock advance: "6x" is not a duration: write a number and a unit, e.g. 90s, 10m, 6h or 1d.', "paysim clock advance"],
    [["events", "list", "--colour"], "paysim events list: unknown option --colour.", "paysim events list"],
    [["events", "list", "--tpye", "x"], "paysim events list: unknown option --tpye; did you mean --type?", "paysim events list"],
    [["events", "list", "--limit"], "paysim events list: --limit needs a value: write --limit <n>.", "paysim events list"],
    [["events", "show"], "paysim events show: the <evt_id> argument is missing.", "paysim events show"],
    [["start", "--port", "abc"], 'paysim start: --port "abc" is invalid: it must be an integer from 0 to 65535.', "paysim start"],
    [
      ["start", "--time-scale", "0"],
      'paysim start: --time-scale "0" is invalid: it must be a number greater than 0 and at most 1000000, e.g. 60.',
      "paysim start",
    ],
    [["endpoints", "add", "http://127.0.0.1:9/hooks", "--chaos"], "paysim endpoints add: --chaos needs a value: write --chaos <spec>.", "paysim endpoints add"],
    [
      ["endpoints", "add", "http://127.0.0.1:9/hooks", "--chaos", "bogus"],
      'paysim endpoints add: --chaos "bogus" is invalid: "bogus" is not key=value; give e.g. duplicate=0.2,reorder=0.2,delay=0-3000,seed=42.',
      "paysim endpoints add",
    ],
    [
      ["trigger", "payment_intent.captureed"],
      `paysim trigger: "payment_intent.captureed" is not an event type; did you mean payment_intent.captured? The event types are: ${EVENT_TYPES.join(", ")}.`,
      "paysim trigger",
    ],
  ])("exits 1 for %j with one line that says what is wrong and where the help is", async (args, line, command) => {
    const { code, stdout, stderr } = await runCli(args);
    expect(code).toBe(1);
    expect(stdout).toBe("");
    expect(stderr).toBe(`${line}\nsee ${command} --help\n`);
  });

  it("exits 1 with the help when no command is given", async () => {
    const { code, stderr } = await runCli([]);
    expect(code).toBe(1);
    expect(stderr).toContain("Usage: paysim [options] [command]");
  });
});

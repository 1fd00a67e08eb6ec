import { Command, InvalidArgumentError, Option } from "commander";
import { connect, withClientOptions, type ClientFlags } from "../client.js";
import { fields, json, money, paintStatus, text } from "../format.js";
import { consoleOutput, type Output } from "../output.js";

interface TransitionFlags extends ClientFlags {
  amount?: number;
}

function positiveInteger(raw: string): number {
  if (!/^\d+$/.test(raw) || Number(raw) < 1 || !Number.isSafeInteger(Number(raw))) {
    throw new InvalidArgumentError("it must be a positive whole number of minor units, e.g. 250.");
  }
  return Number(raw);
}

export function payoutsCommand(output: Output = consoleOutput): Command {
  const transition = withClientOptions(
    new Command("transition")
      .description("Move a payout along one drawn transition (works with --payouts auto and manual)")
      .argument("<po_id>", "the payout's id")
      .argument("<status>", "processing, succeeded, failed, returned, reversed or partially_reversed")
      .addOption(new Option("--amount <n>", "amount reversed, in minor units; required for partially_reversed only").argParser(positiveInteger)),
  )
    .addHelpText(
      "after",
      `
Drawn moves: pending → processing | failed | returned, processing → succeeded,
succeeded → reversed | partially_reversed (with --amount, less than the payout's amount).

Examples:
  $ paysim payouts transition po_3kTq0cXbVd9pHnRw2LmYs4Ae processing
  $ paysim payouts transition po_3kTq0cXbVd9pHnRw2LmYs4Ae succeeded
  $ paysim payouts transition po_3kTq0cXbVd9pHnRw2LmYs4Ae partially_reversed --amount 250`,
    )
    .action(async (id: string, status: string, flags: TransitionFlags) => {
      const body = flags.amount === undefined ? { to: status } : { to: status, amount: flags.amount };
      const payout = await (await connect(flags, output)).call("POST", `/v1/sandbox/payouts/${encodeURIComponent(id)}/transition`, { body });
      if (flags.json) return output.line(json(payout));
      for (const line of payoutLines(payout)) output.line(line);
    });

  return new Command("payouts")
    .description("Drive payouts by hand")
    .addCommand(transition)
    .addHelpText(
      "after",
      `
Examples:
  $ paysim payouts transition po_3kTq0cXbVd9pHnRw2LmYs4Ae returned`,
    );
}

function payoutLines(payout: Record<string, unknown>): string[] {
  return fields([
    ["id", text(payout.id)],
    ["reference", text(payout.reference)],
    ["status", text(payout.status), paintStatus],
    ["amount", money(payout.amount, payout.currency)],
    ["amount_reversed", money(payout.amount_reversed, payout.currency)],
    ["destination", `${text(payout.destination_type)} ${text(payout.destination_masked)}`],
    ["failure_reason", text(payout.failure_reason)],
    ["updated_at", text(payout.updated_at)],
  ]);
}

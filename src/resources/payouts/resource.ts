import { PAYOUT_EVENTS, PAYOUT_MOVES } from "./machine.js";
import type { ResourceDefinition } from "../define.js";

/** A payout: money sent to a card or bank account (docs/api.md). */
export const payout = {
  noun: "payout",
  collection: "payouts",
  idPrefix: "po",
  schemaName: "Payout",
  events: PAYOUT_EVENTS,
  machine: PAYOUT_MOVES,
  table: "payouts",
  reset: "counted",
  dashboardPage: true,
  // Typed as any module: the definition stays pure to whoever reads its type (the package's declarations too).
  module: (): Promise<{ default: unknown }> => import("./module.js"),
} as const satisfies ResourceDefinition;

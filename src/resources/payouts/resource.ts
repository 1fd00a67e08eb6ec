import { PAYOUT_EVENTS, PAYOUT_MOVES } from "../../domain/payout.js";
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
} as const satisfies ResourceDefinition;

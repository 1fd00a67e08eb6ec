import { PAYMENT_INTENT_EVENTS, PAYMENT_INTENT_TRANSITIONS } from "./machine.js";
import type { ResourceDefinition } from "../define.js";

/** A payment intent: a charge a customer pays on the hosted checkout (docs/api.md). */
export const paymentIntent = {
  noun: "payment intent",
  collection: "payment_intents",
  idPrefix: "pi",
  schemaName: "PaymentIntent",
  events: PAYMENT_INTENT_EVENTS,
  machine: PAYMENT_INTENT_TRANSITIONS,
  table: "payment_intents",
  reset: "counted",
  dashboardPage: true,
  // Typed as any module: the definition stays pure to whoever reads its type (the package's declarations too).
  module: (): Promise<{ default: unknown }> => import("./module.js"),
} as const satisfies ResourceDefinition;

import type { ResourceDefinition } from "../define.js";

/** One attempt of a delivery, with what the receiver answered. */
export const deliveryAttempt = {
  noun: "delivery attempt",
  collection: "delivery_attempts",
  schemaName: "DeliveryAttempt",
  events: [],
  table: "delivery_attempts",
  reset: "deleted",
  dashboardPage: false,
  // Typed as any module: the definition stays pure to whoever reads its type (the package\'s declarations too).
  module: (): Promise<{ default: unknown }> => import("./module.js"),
} as const satisfies ResourceDefinition;

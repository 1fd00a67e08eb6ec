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
} as const satisfies ResourceDefinition;

import type { ResourceDefinition } from "../define.js";

/** A delivery: one event on its way to one webhook endpoint. */
export const delivery = {
  noun: "delivery",
  collection: "deliveries",
  idPrefix: "del",
  schemaName: "Delivery",
  events: [],
  table: "deliveries",
  reset: "deleted",
  dashboardPage: false,
} as const satisfies ResourceDefinition;

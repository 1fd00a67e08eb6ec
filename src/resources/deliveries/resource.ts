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
  // Typed as any module: the definition stays pure to whoever reads its type (the package\'s declarations too).
  module: (): Promise<{ default: unknown }> => import("./module.js"),
} as const satisfies ResourceDefinition;

import type { ResourceDefinition } from "../define.js";

/** An event: what happened to a resource, delivered to the webhook endpoints (docs/webhooks.md). */
export const event = {
  noun: "event",
  collection: "events",
  idPrefix: "evt",
  schemaName: "Event",
  events: [],
  table: "events",
  reset: "counted",
  dashboardPage: true,
  // Typed as any module: the definition stays pure to whoever reads its type (the package\'s declarations too).
  module: (): Promise<{ default: unknown }> => import("./module.js"),
} as const satisfies ResourceDefinition;

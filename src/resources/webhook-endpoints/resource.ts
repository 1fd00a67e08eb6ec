import type { ResourceDefinition } from "../define.js";

/** A webhook endpoint: a URL the events are delivered to, signed with its secret. */
export const webhookEndpoint = {
  noun: "webhook endpoint",
  collection: "webhook_endpoints",
  idPrefix: "we",
  schemaName: "WebhookEndpoint",
  events: [],
  table: "webhook_endpoints",
  reset: "kept",
  dashboardPage: false,
  // Typed as any module: the definition stays pure to whoever reads its type (the package\'s declarations too).
  module: (): Promise<{ default: unknown }> => import("./module.js"),
} as const satisfies ResourceDefinition;

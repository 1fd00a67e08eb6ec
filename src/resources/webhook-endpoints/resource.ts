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
} as const satisfies ResourceDefinition;

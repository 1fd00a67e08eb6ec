import { defineResourceModule } from "../resource-module.js";
import { webhookEndpointAnswer, webhookEndpointSchema } from "./contract.js";
import { WEBHOOK_ENDPOINT_OPERATIONS } from "./operations.js";
import { webhookEndpoint } from "./resource.js";
import { createWebhookEndpointsRepo } from "./store.js";

/**
 * Webhook endpoints: their table's statements, read by the start (--forward-to, the config), the
 * outbox and the coverage too (`store.webhookEndpoints`); the service that adds, lists and deletes
 * them (`deps.webhookEndpoints`), /v1/webhook_endpoints, and the dashboard's page.
 */
export default defineResourceModule(webhookEndpoint, {
  store: { migrations: [], repo: createWebhookEndpointsRepo, tables: [] },
  shared: { repo: "webhookEndpoints", service: "webhookEndpoints" },
  operations: WEBHOOK_ENDPOINT_OPERATIONS,
  schema: webhookEndpointSchema,
  answer: webhookEndpointAnswer,
  page: async () => (await import("./page.js")).webhookEndpointsPage,
});

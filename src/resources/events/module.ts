import { defineResourceModule } from "../resource-module.js";
import { eventSchema } from "./contract.js";
import { EVENT_OPERATIONS, ingestWebhookEvent } from "./operations.js";
import { event } from "./resource.js";
import { createEventsRepo } from "./store.js";

/**
 * Events: their table's statements (paysim's steps make it), read by the unit of work that records
 * them, the outbox, the waits and the coverage too (`store.events`); the service that lists, reads
 * and resends them (`deps.events`), /v1/events and the test-event ingestion, and the dashboard's
 * list and event pages.
 */
export default defineResourceModule(event, {
  store: { migrations: [], repo: createEventsRepo, tables: [] },
  shared: { repo: "events", service: "events" },
  operations: [...EVENT_OPERATIONS, ingestWebhookEvent],
  schema: eventSchema,
  page: async () => (await import("./page.js")).eventsPage,
});

import { defineResourceModule } from "../resource-module.js";
import { deliverySchema } from "./contract.js";
import { delivery } from "./resource.js";
import { createDeliveriesRepo } from "./store.js";

/**
 * Deliveries: their table's statements, which the webhook system (webhooks/) writes and reads
 * (`store.deliveries`), and the schema an event's read shows each in. They have no operations of
 * their own: an event's read and resend answer them.
 */
export default defineResourceModule(delivery, {
  store: { migrations: [], repo: createDeliveriesRepo, tables: [] },
  shared: { repo: "deliveries" },
  operations: [],
  schema: deliverySchema,
});

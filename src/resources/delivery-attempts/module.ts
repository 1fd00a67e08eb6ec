import { defineResourceModule } from "../resource-module.js";
import { deliveryAttemptSchema } from "./contract.js";
import { deliveryAttempt } from "./resource.js";
import { createDeliveryAttemptsRepo } from "./store.js";

/** Delivery attempts: their table's statements, written by the webhook dispatcher (`store.deliveryAttempts`), and the schema a delivery shows each in. */
export default defineResourceModule(deliveryAttempt, {
  store: { migrations: [], repo: createDeliveryAttemptsRepo, tables: [] },
  shared: { repo: "deliveryAttempts" },
  operations: [],
  schema: deliveryAttemptSchema,
});

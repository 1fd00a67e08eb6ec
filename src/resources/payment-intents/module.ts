import { defineResourceModule } from "../resource-module.js";
import { paymentIntentAnswer, paymentIntentSchema } from "./contract.js";
import { PAYMENT_INTENT_OPERATIONS } from "./operations.js";
import { paymentIntent } from "./resource.js";
import { createPaymentIntentService } from "./service.js";
import { createPaymentIntentsRepo } from "./store.js";

/**
 * Payment intents: their table's statements (its steps are paysim's 010 and later), the service
 * the API and the hosted checkout both call (server/checkout/routes.tsx), /v1/payment_intents, and
 * the dashboard's pages.
 */
export default defineResourceModule(paymentIntent, {
  store: { migrations: [], repo: createPaymentIntentsRepo, tables: [] },
  service: createPaymentIntentService,
  operations: PAYMENT_INTENT_OPERATIONS,
  schema: paymentIntentSchema,
  answer: paymentIntentAnswer,
  page: async () => (await import("./page.js")).paymentIntentsPage,
});

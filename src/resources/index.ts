import { company } from "./companies/resource.js";
import { delivery } from "./deliveries/resource.js";
import { deliveryAttempt } from "./delivery-attempts/resource.js";
import { event } from "./events/resource.js";
import { fault } from "./faults/resource.js";
import { instance } from "./instances/resource.js";
import { paymentIntent } from "./payment-intents/resource.js";
import { payout } from "./payouts/resource.js";
import { webhookEndpoint } from "./webhook-endpoints/resource.js";

export type { ResourceDefinition } from "./define.js";

/**
 * Every resource, one line each, in the order the API's documents list them: the one place a
 * resource is registered (docs/architecture.md, "Adding a resource"). Each is its folder's
 * resources/<collection>/resource.ts; what every resource has is derived from this list (domain/resources.ts), and the
 * wiring loads each one's module from here.
 */
export const RESOURCES = {
  payment_intent: paymentIntent,
  payout: payout,
  event: event,
  delivery: delivery,
  delivery_attempt: deliveryAttempt,
  webhook_endpoint: webhookEndpoint,
  fault: fault,
  instance: instance,
  company: company,
};

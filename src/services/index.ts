import { createEventService } from "../resources/events/service.js";
import { createFaultRules } from "../resources/faults/service.js";
import { createSandboxService } from "./sandbox.js";
import { createWebhookEndpointService } from "../resources/webhook-endpoints/service.js";

/**
 * The services the API, the dashboard and the helpers call, each made by its maker from the ports
 * the wiring gives them all (ServiceDeps): a new service is one module and one line here, and the
 * server reaches it as `deps.<name>` (server/env.ts's AppDeps has every one).
 */
const SERVICES = {
  events: createEventService,
  webhookEndpoints: createWebhookEndpointService,
  sandbox: createSandboxService,
  faults: createFaultRules,
};

type Makers = typeof SERVICES;

export type Services = { readonly [K in keyof Makers]: ReturnType<Makers[K]> };

type Intersection<U> = (U extends unknown ? (value: U) => void : never) extends (value: infer I) => void ? I : never;

/** What the services are made from: every port any maker takes, so one the wiring leaves out fails to compile. */
export type ServiceDeps = Intersection<Parameters<Makers[keyof Makers]>[0]>;

/** Makes every service from `deps`, in the order SERVICES lists them. */
export function createServices(deps: ServiceDeps): Services {
  return Object.fromEntries(Object.entries(SERVICES).map(([name, make]) => [name, (make as (deps: ServiceDeps) => unknown)(deps)])) as Services;
}

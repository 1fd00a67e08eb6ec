import { createEventService } from "../resources/events/service.js";
import { createFaultRules } from "../resources/faults/service.js";
import { createSandboxService } from "./sandbox.js";
import { createWebhookEndpointService } from "../resources/webhook-endpoints/service.js";

/**
 * The services every layer reaches by name, each made by its maker from the ports the wiring gives
 * them all (ServiceDeps): the sandbox's own, and those a resource's module shares (`shared.service`,
 * resources/resource-module.ts), whose makers live in the resource's folder. The server reaches
 * each as `deps.<name>` (server/env.ts's AppDeps has every one). A new resource's service is made
 * by its module instead, and needs no line here.
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

import type { ResourceDefinition } from "./define.js";
import type { ServedModule } from "../server/operations/served-module.js";
import type { ServiceDeps, Services } from "../services/index.js";
import type { ResourceStore } from "../store/resource-store.js";
import type { REPOS } from "../store/schema.js";
import type { Scheduler } from "../runtime/scheduler.js";
import type { Work } from "../services/unit-of-work.js";
import type { PayoutMode } from "../sim/payout-simulator.js";
import type { TestDestination } from "./payouts/machine.js";
import type { TestCard } from "../domain/test-cards.js";

/**
 * Everything of one resource beyond its definition, as resources/<collection>/module.ts exports it
 * (`export default defineResourceModule(…)`): its store (table, repository, import rules), its
 * service, its operations and named schemas, its dashboard page. The wiring builds each part in
 * its layer's place (resources/load.ts loads them, paysim.ts builds them), so nothing else lists a
 * resource's parts: what is not here is not served, and what is here is.
 */
export interface ResourceModule<Repo = unknown, Service = unknown> extends ServedModule {
  store?: ResourceStore<Repo>;
  /** Makes its service from the services' ports and its own repository, once per instance. */
  service?: (deps: ResourceServiceDeps<Repo>) => Service;
  /**
   * For a resource the rest of paysim reads too (the webhook system reads the events and the
   * endpoints, the request pipeline the fault rules): the name the store gives its repository
   * (`store.<repo>`, store/schema.ts's REPOS, made from this module's `store.repo`) and the one
   * the app gives its service (`deps.<service>`), which its operations call. Each is made once
   * per instance, where every layer finds it; `serviceOf(definition)` answers that one too.
   */
  shared?: { repo?: keyof typeof REPOS; service?: SharedService };
}

/**
 * The services every layer reaches by name in the app's deps (server/env.ts): those services/index.ts
 * makes, and the instances' registry, which the wiring makes with the way to start a paysim.
 */
export type SharedService = keyof Services | "instances";

/** What a resource's service is made from: every service's ports, the start's settings a resource may need, and its own repository (made on first use). */
export interface ResourceServiceDeps<Repo> extends ServiceDeps {
  scheduler: Scheduler<Work>;
  testCards: readonly TestCard[];
  /** Absolute base URL of this instance, known once it listens. */
  baseUrl: () => string;
  destinations: readonly TestDestination[];
  /** Whether payouts move on their own (`auto`) or only when told (docs/testing.md). */
  payoutMode: PayoutMode;
  repo: Repo;
  /** The service another resource's module makes (a refund reads the payment intent it names): asked when called, not when made. */
  serviceOf<Service>(definition: ResourceDefinition): Service;
}

/**
 * The module of the resource `definition` (the same object the registry lists). Its service's
 * `repo` is its store's; load.ts refuses a module whose definition promises a dashboard page it
 * does not give.
 */
export function defineResourceModule<Repo, Service>(
  definition: ResourceDefinition,
  parts: Omit<ResourceModule<Repo, Service>, "definition">,
): ResourceModule<Repo, Service> {
  return { definition, ...parts };
}

import type { ResourceDefinition } from "./define.js";
import type { ServedModule } from "../server/operations/served-module.js";
import type { ServiceDeps } from "../services/index.js";
import type { ResourceStore } from "../store/resource-store.js";

/**
 * Everything of one resource beyond its definition, as its folder's `module.ts` exports it
 * (`export default defineResourceModule(…)`): its store (table, repository, import rules), its
 * service, its operations and named schemas, its dashboard page. The wiring builds each part in
 * its layer's place (resources/load.ts loads them, paysim.ts builds them), so nothing else lists a
 * resource's parts: what is not here is not served, and what is here is.
 */
export interface ResourceModule<Repo = unknown, Service = unknown> extends ServedModule {
  store?: ResourceStore<Repo>;
  /** Makes its service from the services' ports and its own repository. */
  service?: (deps: ServiceDeps & { repo: Repo }) => Service;
}

/**
 * The module of the resource `definition` (the same object the registry lists). A service needs
 * the store it reads, and a dashboard page the definition's `dashboardPage`: either one alone does
 * not compile.
 */
export function defineResourceModule<Repo, Service>(
  definition: ResourceDefinition,
  parts: Omit<ResourceModule<Repo, Service>, "definition"> &
    ({ service?: never } | { store: ResourceStore<Repo>; service: (deps: ServiceDeps & { repo: Repo }) => Service }),
): ResourceModule<Repo, Service> {
  return { definition, ...parts };
}

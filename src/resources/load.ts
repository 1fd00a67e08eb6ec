import type { ResourceDefinition } from "./define.js";
import { RESOURCES } from "./index.js";
import type { ResourceModule } from "./resource-module.js";

/** Why a resource's module cannot be served: said at start, before any file is made. */
export class ResourceModuleError extends Error {}

let loading: Promise<readonly ResourceModule[]> | undefined;

/**
 * The module of every registered resource (its definition's `module`), in the registry's order,
 * loaded once per process: modules are code, the same for every instance. Each is checked by
 * `checkedModule`, which says at start why one cannot be served.
 */
export function loadResourceModules(): Promise<readonly ResourceModule[]> {
  return (loading ??= Promise.all(Object.values(RESOURCES as Record<string, ResourceDefinition>).map((definition) => loaded(definition))));
}

async function loaded(definition: ResourceDefinition): Promise<ResourceModule> {
  return checkedModule(definition, (await definition.module()).default);
}

/**
 * `exported` as the module of `definition`, or why it cannot be served (ResourceModuleError): one
 * that is not its definition's own, a service or a shared repository without a store to read, a
 * service both made and shared, operations with no service to call, a dashboard page the
 * definition promises and the module does not give.
 */
export function checkedModule(definition: ResourceDefinition, exported: unknown): ResourceModule {
  const module = exported as ResourceModule | undefined;
  if (module?.definition !== definition) {
    throw new ResourceModuleError(
      `The module of ${definition.collection} is not its own: its resources/<collection>/module.ts must export default defineResourceModule(<its definition>, …).`,
    );
  }
  if (module.service !== undefined && module.store === undefined) {
    throw new ResourceModuleError(`The module of ${definition.collection} has a service but no store: a service reads its own table (store.repo).`);
  }
  if (module.shared?.repo !== undefined && module.store === undefined) {
    throw new ResourceModuleError(`The module of ${definition.collection} shares a repository (shared.repo) but has no store to make it from (store.repo).`);
  }
  if (module.service !== undefined && module.shared?.service !== undefined) {
    throw new ResourceModuleError(
      `The module of ${definition.collection} makes a service and shares one (shared.service): an instance has one of each resource's.`,
    );
  }
  if (module.operations.length > 0 && module.service === undefined && module.shared?.service === undefined) {
    throw new ResourceModuleError(
      `The module of ${definition.collection} serves operations but makes no service for them to call (service) and shares none (shared.service).`,
    );
  }
  if (definition.dashboardPage && module.page === undefined) {
    throw new ResourceModuleError(`${definition.collection} promises a dashboard page (dashboardPage: true) that its module does not give (page).`);
  }
  return module;
}

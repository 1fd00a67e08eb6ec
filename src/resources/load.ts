import type { ResourceDefinition } from "./define.js";
import { RESOURCES } from "./index.js";
import type { ResourceModule } from "./resource-module.js";

/** Why a resource's module cannot be served: said at start, before any file is made. */
export class ResourceModuleError extends Error {}

let loading: Promise<readonly ResourceModule[]> | undefined;

/**
 * The module of every registered resource that has one (its definition's `module`), in the
 * registry's order, loaded once per process: modules are code, the same for every instance.
 * Refuses a module that is not its definition's own, one whose operations have no service to
 * call or whose service has no table, and one whose definition promises a dashboard page it does
 * not give.
 */
export function loadResourceModules(): Promise<readonly ResourceModule[]> {
  return (loading ??= Promise.all(
    Object.values(RESOURCES as Record<string, ResourceDefinition>).flatMap((definition) => (definition.module ? [loaded(definition, definition.module)] : [])),
  ));
}

async function loaded(definition: ResourceDefinition, load: NonNullable<ResourceDefinition["module"]>): Promise<ResourceModule> {
  const module = (await load()).default as ResourceModule | undefined;
  if (module?.definition !== definition) {
    throw new ResourceModuleError(
      `The module of ${definition.collection} is not its own: its resources/<collection>/module.ts must export default defineResourceModule(<its definition>, …).`,
    );
  }
  if (module.service !== undefined && module.store === undefined) {
    throw new ResourceModuleError(`The module of ${definition.collection} has a service but no store: a service reads its own table (store.repo).`);
  }
  if (module.operations.length > 0 && module.service === undefined) {
    throw new ResourceModuleError(`The module of ${definition.collection} serves operations but makes no service for them to call (service).`);
  }
  if (definition.dashboardPage && module.page === undefined) {
    throw new ResourceModuleError(`${definition.collection} promises a dashboard page (dashboardPage: true) that its module does not give (page).`);
  }
  return module;
}

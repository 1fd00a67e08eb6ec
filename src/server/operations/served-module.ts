import type * as z from "zod";
import { serviceIn, type ResourceDefinition } from "../../resources/define.js";
import type { DashboardApp, DashboardKit } from "../dashboard/kit.js";
import type { CallContext, Operation } from "./define.js";

/**
 * What the server serves of a resource, from its folder (resources/<collection>/module.ts): its
 * operations, its schema among the OpenAPI components (and its answer, the schema with the
 * request id) when the resource has a `schemaName`, and its dashboard page when it has one. The
 * app mounts every one it is given: a module's operation or page cannot be left unmounted.
 */
export interface ServedModule {
  definition: ResourceDefinition;
  operations: readonly Operation[];
  schema?: z.ZodType;
  answer?: z.ZodType;
  /**
   * Loads what mounts its pages (`/<collection>`, and `/<collection>/:id` when the definition says
   * `dashboardPage`): asked when the dashboard is first asked for, so a run that never opens it
   * loads none of its pages (written `import("./page.js")`, which the CLI bundle keeps in its one file).
   */
  page?: () => Promise<PageMounter>;
}

/** Mounts a resource's dashboard pages on the session's pages, with the dashboard's kit. */
export type PageMounter = (pages: DashboardApp, kit: DashboardKit) => void;

/**
 * The service of the resource `definition` names, for its own operations: the wiring makes it from
 * the module's `service` and gives it to the app (`AppDeps.resourceServices`) under its collection.
 */
export function serviceOf<Service>(definition: ResourceDefinition): (call: Pick<CallContext, "deps">) => Service {
  return ({ deps }) => serviceIn<Service>(deps.resourceServices, definition);
}

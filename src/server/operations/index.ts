import type * as z from "zod";
import { RESOURCES, type ResourceDefinition } from "../../resources/index.js";
import type { CoverageCatalogue } from "../../services/coverage.js";
import { coverageOperations } from "./coverage.js";
import type { Operation } from "./define.js";
import { CLOCK_OPERATIONS, resetSandbox } from "./sandbox.js";
import { WAIT_OPERATIONS } from "./waits.js";
import type { ServedModule } from "./served-module.js";

const isSandboxControl = (operation: Operation) => operation.path.startsWith("/v1/sandbox/");

/**
 * Every operation the app serves, in the order the OpenAPI document lists them: each resource's
 * own, in the registry's order, then the sandbox's controls (a resource's ones first, then the
 * clock and the reset, the waits, the coverage and the run report, which `catalogue` reads).
 */
export function servedOperations(catalogue: () => CoverageCatalogue, modules: readonly ServedModule[]): Operation[] {
  const ofResources = inRegistryOrder(modules).flatMap((served) => served.operations);
  return [
    ...ofResources.filter((operation) => !isSandboxControl(operation)),
    ...ofResources.filter(isSandboxControl),
    ...CLOCK_OPERATIONS,
    resetSandbox,
    ...WAIT_OPERATIONS,
    ...coverageOperations(catalogue),
  ];
}

/** Each resource's module, in the registry's order (the order the API's documents list them). */
function inRegistryOrder(modules: readonly ServedModule[]): ServedModule[] {
  return Object.values(RESOURCES as Record<string, ResourceDefinition>).flatMap((definition) => modules.filter((module) => module.definition === definition));
}

/** The resources' schemas by their OpenAPI component names, in the registry's order: a schema that uses one refers to it by name. */
export function namedSchemas(modules: readonly ServedModule[]): (readonly [string, z.ZodType])[] {
  return inRegistryOrder(modules).flatMap(({ definition, schema, answer }) => {
    const { schemaName } = definition;
    if (schemaName === undefined || schema === undefined) return [];
    return [[schemaName, schema] as const, ...(answer ? [[`${schemaName}Answer`, answer] as const] : [])];
  });
}

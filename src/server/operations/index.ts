import type * as z from "zod";
import type { CoverageCatalogue } from "../../services/coverage.js";
import { coverageOperations } from "./coverage.js";
import type { Operation } from "./define.js";
import { CLOCK_OPERATIONS, resetSandbox } from "./sandbox.js";
import { WAIT_OPERATIONS } from "./waits.js";
import type { ServedModule } from "./served-module.js";

const isSandboxControl = (operation: Operation) => operation.path.startsWith("/v1/sandbox/");

/**
 * Every operation the app serves, in the order the OpenAPI document lists them: each resource's
 * own, in the order of `modules` (the registry's, as resources/load.ts answers them), then the
 * sandbox's controls (a resource's ones first, then the clock and the reset, the waits, the
 * coverage and the run report, which `catalogue` reads).
 */
export function servedOperations(catalogue: () => CoverageCatalogue, modules: readonly ServedModule[]): Operation[] {
  const ofResources = modules.flatMap((served) => served.operations);
  return [
    ...ofResources.filter((operation) => !isSandboxControl(operation)),
    ...ofResources.filter(isSandboxControl),
    ...CLOCK_OPERATIONS,
    resetSandbox,
    ...WAIT_OPERATIONS,
    ...coverageOperations(catalogue),
  ];
}

/** The resources' schemas by their OpenAPI component names, in the order of `modules`: a schema that uses one refers to it by name. */
export function namedSchemas(modules: readonly ServedModule[]): (readonly [string, z.ZodType])[] {
  return modules.flatMap(({ definition, schema, answer }) => {
    const { schemaName } = definition;
    if (schemaName === undefined || schema === undefined) return [];
    return [[schemaName, schema] as const, ...(answer ? [[`${schemaName}Answer`, answer] as const] : [])];
  });
}

import type * as z from "zod";
import { deliveryAttemptSchema, deliverySchema, eventSchema } from "../../contracts/events.js";
import { webhookEndpointAnswer, webhookEndpointSchema } from "../../contracts/webhook-endpoints.js";
import { RESOURCES, type ResourceName } from "../../domain/resources.js";
import type { CoverageCatalogue } from "../../services/coverage.js";
import { coverageOperations } from "./coverage.js";
import type { Operation } from "./define.js";
import { EVENT_OPERATIONS, ingestWebhookEvent } from "./events.js";
import { FAULT_OPERATIONS } from "./faults.js";
import { INSTANCE_OPERATIONS } from "./instances.js";
import { CLOCK_OPERATIONS, resetSandbox } from "./sandbox.js";
import { WAIT_OPERATIONS } from "./waits.js";
import { WEBHOOK_ENDPOINT_OPERATIONS } from "./webhook-endpoints.js";
import type { ServedModule } from "./served-module.js";

/**
 * What the API serves of one resource: its operations (those of its own paths, and those of the
 * sandbox's paths that act on it), and for a resource the registry names among the OpenAPI
 * components (domain/resources.ts, `schemaName`) the schema named so and, when it is answered on
 * its own, its answer (the schema with the request id), named `<schemaName>Answer`.
 */
/** The resources whose parts live in the layers' own folders, not in a folder of their own (those are served from their modules). */
type InLayers = { [K in ResourceName]: (typeof RESOURCES)[K] extends { module: unknown } ? never : K }[ResourceName];

type Served<K extends ResourceName> = { operations: readonly Operation[] } & ((typeof RESOURCES)[K] extends { schemaName: string }
  ? { schema: z.ZodType; answer?: z.ZodType }
  : { schema?: never });

/** Every resource's operations and named schemas: a resource registered without its entry here does not compile. */
const SERVED_RESOURCES: { [K in InLayers]: Served<K> } = {
  event: { operations: [...EVENT_OPERATIONS, ingestWebhookEvent], schema: eventSchema },
  delivery: { operations: [], schema: deliverySchema },
  delivery_attempt: { operations: [], schema: deliveryAttemptSchema },
  webhook_endpoint: { operations: WEBHOOK_ENDPOINT_OPERATIONS, schema: webhookEndpointSchema, answer: webhookEndpointAnswer },
  fault: { operations: FAULT_OPERATIONS },
  instance: { operations: INSTANCE_OPERATIONS },
  company: { operations: [] },
};

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

interface ServedParts {
  name: ResourceName;
  operations: readonly Operation[];
  schema?: z.ZodType;
  answer?: z.ZodType;
}

/** Each resource's served parts, in the registry's order: those in the layers' folders and those of the modules. */
function inRegistryOrder(modules: readonly ServedModule[]): ServedParts[] {
  return (Object.keys(RESOURCES) as ResourceName[]).flatMap((name): ServedParts[] => {
    const served = (SERVED_RESOURCES as Partial<Record<ResourceName, Omit<ServedParts, "name">>>)[name];
    if (served !== undefined) return [{ name, ...served }];
    const module = modules.find((candidate) => candidate.definition === RESOURCES[name]);
    return module === undefined ? [] : [{ name, ...module }];
  });
}

/** The resources' schemas by their OpenAPI component names, in the registry's order: a schema that uses one refers to it by name. */
export function namedSchemas(modules: readonly ServedModule[]): (readonly [string, z.ZodType])[] {
  return inRegistryOrder(modules).flatMap(({ name, schema, answer }) => {
    const schemaName = (RESOURCES[name] as { schemaName?: string }).schemaName;
    if (schemaName === undefined || schema === undefined) return [];
    return [[schemaName, schema] as const, ...(answer ? [[`${schemaName}Answer`, answer] as const] : [])];
  });
}

import { RESOURCES, type ResourceDefinition } from "../resources/index.js";

export { RESOURCES, type ResourceDefinition };

/*
 * What every resource has, derived from the registry (resources/index.ts): the event types, the id
 * prefixes, the state machines, what a reset counts and deletes, the dashboard's links.
 */

export type ResourceName = keyof typeof RESOURCES;
type Registered = (typeof RESOURCES)[ResourceName];

const entries = Object.entries(RESOURCES) as [ResourceName, ResourceDefinition][];

/** The prefixes of the resources' ids. */
export type ResourceIdPrefix = Extract<Registered, { idPrefix: string }>["idPrefix"];

export const RESOURCE_ID_PREFIXES = entries.flatMap(([, resource]) => (resource.idPrefix === undefined ? [] : [resource.idPrefix])) as ResourceIdPrefix[];

/** Every event type paysim emits: each resource's, in the registry's order. */
export type EventType = Registered["events"][number];

export const EVENT_TYPES: readonly EventType[] = entries.flatMap(([, resource]) => resource.events as readonly EventType[]);

/** A resource with a state machine: the machines the coverage report counts the moves of. */
export type Machine = { [K in ResourceName]: (typeof RESOURCES)[K] extends { machine: readonly unknown[] } ? K : never }[ResourceName];

/** Each state machine's drawn moves. */
export const MACHINE_MOVES = Object.fromEntries(entries.flatMap(([name, resource]) => (resource.machine ? [[name, resource.machine]] : []))) as Record<
  Machine,
  readonly { from: string; to: string }[]
>;

/** The state machines, in the registry's order. */
export const MACHINES = Object.keys(MACHINE_MOVES) as Machine[];

/** The collections a reset counts (`deleted.<collection>`). */
export type ResetCounted = {
  [K in ResourceName]: (typeof RESOURCES)[K]["reset"] extends "counted" ? (typeof RESOURCES)[K]["collection"] : never;
}[ResourceName];

/** What a sandbox reset deleted, counted per collection (docs/api.md, "Reset"). */
export type ResetCounts = Record<ResetCounted, number>;

/** The resources a reset counts, in the registry's order: their collection and what one is called. */
export const RESET_COUNTED: readonly { collection: ResetCounted; noun: string; table: string }[] = entries.flatMap(([, resource]) =>
  resource.reset === "counted" && resource.table !== null
    ? [{ collection: resource.collection as ResetCounted, noun: resource.noun, table: resource.table }]
    : [],
);

/** The resources with rows in a table, each with what a reset does with them. */
export const RESOURCE_TABLES: readonly { table: string; reset: ResourceDefinition["reset"] }[] = entries.flatMap(([, resource]) =>
  resource.table === null ? [] : [{ table: resource.table, reset: resource.reset }],
);

/** Fills `value` in for each state machine: an object with exactly the machines as keys. */
export function byMachine<T>(value: (machine: Machine) => T): Record<Machine, T> {
  return Object.fromEntries(MACHINES.map((machine) => [machine, value(machine)])) as Record<Machine, T>;
}

/** Fills `value` in for each collection a reset counts. */
export function byResetCount<T>(value: (collection: ResetCounted) => T): Record<ResetCounted, T> {
  return Object.fromEntries(RESET_COUNTED.map(({ collection }) => [collection, value(collection)])) as Record<ResetCounted, T>;
}

/**
 * The dashboard path of the object an id names, by its prefix (`payouts/po_…`), for a resource
 * with a page of its own; undefined for any other id.
 */
export function dashboardPathOf(id: string): string | undefined {
  for (const [, resource] of entries) {
    if (resource.dashboardPage && resource.idPrefix !== undefined && id.startsWith(`${resource.idPrefix}_`)) return `/${resource.collection}/${id}`;
  }
  return undefined;
}

/** The resource whose events include `type` ("payout.failed": the payout); undefined for a type no resource emits. */
export function resourceOfEventType(type: string): ResourceDefinition | undefined {
  return entries.find(([, resource]) => resource.events.includes(type))?.[1];
}

import { PAYMENT_INTENT_EVENTS, PAYMENT_INTENT_TRANSITIONS } from "./payment-intent.js";
import { PAYOUT_EVENTS, PAYOUT_MOVES } from "./payout.js";

/**
 * One resource of the API, registered once in RESOURCES: what the rest of paysim derives from it
 * (the event types, the state machines the coverage report counts, what a reset deletes and
 * counts, the dashboard's links, the OpenAPI component names). What belongs to one layer only
 * (its schemas, table, repo, service, operations) is registered there, in a registry keyed by
 * these names, so that a resource left out of one fails to compile or a test named for it
 * (docs/architecture.md, "Adding a resource").
 */
export interface ResourceDefinition {
  /** What one is called in words ("payment intent"); "s" makes the plural. */
  noun: string;
  /** The collection, as paths, lists and a reset's counts name it (`payment_intents`). */
  collection: string;
  /** The prefix of its ids (domain/ids.ts makes them), letters only; absent for one that has no id of its own. */
  idPrefix?: string;
  /** The name of its schema among the OpenAPI document's components (`PaymentIntent`); absent: it is named after its operations. */
  schemaName?: string;
  /** The event types it emits, in the order paysim lists them (`paysim trigger --help`, docs/cli.md). */
  events: readonly string[];
  /** Its state machine's drawn moves; absent for a resource without one. */
  machine?: readonly { from: string; to: string }[];
  /** The table its rows live in; null for one held in memory only. */
  table: string | null;
  /** What a sandbox reset does with its rows: deletes and counts them (`deleted.<collection>`), deletes them, or keeps them. */
  reset: "counted" | "deleted" | "kept";
  /** Whether the dashboard shows each one on its own page, `<collection>/<id>`, that an id links to. */
  dashboardPage: boolean;
}

/** Every resource, in the order the API's documents list them. */
export const RESOURCES = {
  payment_intent: {
    noun: "payment intent",
    collection: "payment_intents",
    idPrefix: "pi",
    schemaName: "PaymentIntent",
    events: PAYMENT_INTENT_EVENTS,
    machine: PAYMENT_INTENT_TRANSITIONS,
    table: "payment_intents",
    reset: "counted",
    dashboardPage: true,
  },
  payout: {
    noun: "payout",
    collection: "payouts",
    idPrefix: "po",
    schemaName: "Payout",
    events: PAYOUT_EVENTS,
    machine: PAYOUT_MOVES,
    table: "payouts",
    reset: "counted",
    dashboardPage: true,
  },
  event: { noun: "event", collection: "events", idPrefix: "evt", schemaName: "Event", events: [], table: "events", reset: "counted", dashboardPage: true },
  delivery: {
    noun: "delivery",
    collection: "deliveries",
    idPrefix: "del",
    schemaName: "Delivery",
    events: [],
    table: "deliveries",
    reset: "deleted",
    dashboardPage: false,
  },
  delivery_attempt: {
    noun: "delivery attempt",
    collection: "delivery_attempts",
    schemaName: "DeliveryAttempt",
    events: [],
    table: "delivery_attempts",
    reset: "deleted",
    dashboardPage: false,
  },
  webhook_endpoint: {
    noun: "webhook endpoint",
    collection: "webhook_endpoints",
    idPrefix: "we",
    schemaName: "WebhookEndpoint",
    events: [],
    table: "webhook_endpoints",
    reset: "kept",
    dashboardPage: false,
  },
  fault: { noun: "fault rule", collection: "faults", idPrefix: "flt", events: [], table: "fault_rules", reset: "deleted", dashboardPage: false },
  instance: { noun: "instance", collection: "instances", idPrefix: "ins", events: [], table: null, reset: "kept", dashboardPage: false },
  company: { noun: "company", collection: "companies", idPrefix: "co", events: [], table: "companies", reset: "kept", dashboardPage: false },
} as const satisfies Record<string, ResourceDefinition>;

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

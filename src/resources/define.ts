/**
 * What one resource of the API says of itself, in resources/<collection>/resource.ts: pure facts (no SQL,
 * no HTTP) that every layer may read, and the one link to the rest of the folder, its module
 * (resources/<collection>/module.ts: table, repo, service, operations, dashboard page), which the wiring loads when it
 * builds an instance (resources/load.ts). The registry (resources/index.ts) lists each resource
 * once; what every resource has (event types, reset counts, coverage's machines, the findings'
 * retried creations, dashboard links, trigger fixtures) is derived from it in domain/resources.ts.
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
  /**
   * Loads the rest of the resource, resources/<collection>/module.ts (`export default defineResourceModule(…)`):
   * its table's statements, service, operations and pages. Only the wiring calls it.
   */
  module: () => Promise<{ default: unknown }>;
}

/**
 * The service the wiring made for the resource `definition` names, among `services` (by
 * collection): what a module's operations and another module's service reach it by.
 */
export function serviceIn<Service>(services: ReadonlyMap<string, unknown>, definition: ResourceDefinition): Service {
  const service = services.get(definition.collection);
  if (service === undefined) throw new Error(`No service was made for ${definition.collection}: its module has none.`);
  return service as Service;
}

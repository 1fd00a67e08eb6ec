import type { Bus, EventCreated } from "../bus.js";
import type { Store } from "../store/index.js";

/** What the record keeps of an announced event: enough to find it in the store and to filter it. */
export type RecordedEvent = Pick<EventCreated, "id" | "companyId" | "type" | "objectId">;

/**
 * The events an instance announced since this record started listening (its start), oldest first.
 * It holds ids, not bodies: the store stays the one source of what an event shows, and an event a
 * reset deleted is simply no longer found there (`forget` then drops it).
 */
export interface EventRecord {
  entries(): readonly RecordedEvent[];
  /** Drops entries whose events are gone from the store. */
  forget(ids: ReadonlySet<string>): void;
  stop(): void;
}

/**
 * Starts recording: attach it when the bus is made (`onBusReady`), before anything is announced.
 * `earlier` are events the instance holds from before it started (an imported snapshot's), listed first.
 *
 * @example
 * const record = recordEvents(bus);
 * record.entries(); // [{ id: "evt_…", companyId: "co_…", type: "payment_intent.created", objectId: "pi_…" }]
 */
export function recordEvents(bus: Bus, earlier: readonly RecordedEvent[] = []): EventRecord {
  let entries: RecordedEvent[] = [...earlier];
  const onEvent = ({ id, companyId, type, objectId }: EventCreated) => void entries.push({ id, companyId, type, objectId });
  bus.on("event.created", onEvent);
  return {
    entries: () => entries,
    forget(ids) {
      if (ids.size > 0) entries = entries.filter((entry) => !ids.has(entry.id));
    },
    stop: () => void bus.off("event.created", onEvent),
  };
}

/** The events an imported snapshot brought, oldest first, as the record keeps them. */
export function importedEvents(store: Store): RecordedEvent[] {
  return store.events.everyId().map((row) => ({ id: row.id, companyId: row.company_id, type: row.type, objectId: row.object_id }));
}

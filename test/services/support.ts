import { Bus, type EventCreated } from "../../src/bus.js";
import { createIds } from "../../src/domain/ids.js";
import { createClock, type Clock } from "../../src/runtime/clock.js";
import { bootstrap } from "../../src/services/bootstrap.js";
import { createUnitOfWork, type EventRecordedHook, type NewEvent, type UnitOfWork } from "../../src/services/unit-of-work.js";
import { createStore, type Store } from "../../src/store/index.js";
import type { Db } from "../../src/store/open.js";
import { defer, useDatabase, useTempPath } from "../helpers/disposables.js";
import { rowCount } from "../helpers/paysim.js";

export const T0 = Date.parse("2030-01-01T00:00:00.000Z");

/**
 * The services' real surroundings, as paysim wires them: a store on a real SQLite
 * file, a bus, a clock that moves only when the test advances it, one company.
 * `announced` is every event the bus has announced so far.
 */
export interface Services {
  db: Db;
  store: Store;
  clock: Clock;
  bus: Bus;
  announced: EventCreated[];
  companyId: string;
  run: UnitOfWork;
  /** Rows of a table, counted through the connection (it sees the open group's writes). */
  count(table: "events" | "idempotency_keys" | "meta"): number;
  /** A payment_intent.created event of the company, with `data`. */
  event(data?: object): NewEvent;
}

/** `Services` on a fresh temporary file, closed (once its open group has settled) when the test finishes. */
export function servicesOnAFile(onEventRecorded?: EventRecordedHook): Services {
  const db = useDatabase(useTempPath());
  const store = createStore(db);
  // Nothing may commit on a closed database: the open group settles before it closes.
  defer(() => store.whenOpenGroupDurable());
  const clock = createClock({ realNow: () => T0 });
  const bus = new Bus();
  const announced: EventCreated[] = [];
  bus.on("event.created", (event) => announced.push(event));
  const ids = createIds();
  const companyId = bootstrap(store, clock, ids, {}).companies[0]!.company.id;
  const run = createUnitOfWork(store, bus, clock, ids);
  if (onEventRecorded) run.onEventRecorded(onEventRecorded);
  const count = (table: "events" | "idempotency_keys" | "meta") => rowCount({ store }, table);
  const event = (data: object = { amount: 1000 }): NewEvent => ({ companyId, type: "payment_intent.created", objectId: "pi_test", data });
  return { db, store, clock, bus, announced, companyId, run, count, event };
}

import type { Bus, DeliveryExpected, EventCreated } from "../bus.js";
import type { Ids } from "../domain/ids.js";
import { maskValue } from "../domain/masking.js";
import type { EventType } from "../domain/events.js";
import type { Clock } from "../runtime/clock.js";
import type { Store } from "../store/index.js";
import type { StoredEvent } from "../resources/events/store.js";
import type { EventResource } from "../resources/events/contract.js";

export interface NewEvent {
  companyId: string;
  type: EventType;
  objectId: string | null;
  data: object;
}

/** What a change may do inside its transaction besides writing rows. */
export interface Work {
  readonly requestId: string;
  /** Records an event, and (through the outbox) its deliveries, in this transaction. */
  recordEvent(event: NewEvent): StoredEvent;
  /** Runs `fn` once the transaction has committed (never if it rolls back). */
  afterCommit(fn: () => void): void;
}

/** Called for every event recorded, inside its transaction: the webhook outbox, which answers with the deliveries it made. */
export type EventRecordedHook = (event: StoredEvent) => readonly DeliveryExpected[];

/** What the bus says of a committed event: plain facts, not the row. */
function announced(event: StoredEvent, deliveries: readonly DeliveryExpected[]): EventCreated {
  return {
    id: event.id,
    type: event.type,
    objectId: event.object_id,
    companyId: event.company_id,
    requestId: event.request_id,
    createdAt: event.created_at,
    deliveries,
  };
}

/**
 * Runs a change and its events in ONE transaction, then announces the events on
 * the bus once the transaction has committed (never for a rolled-back change).
 * A unit started inside another joins it, so an outer wrapper (idempotency)
 * and an inner change commit together. Called as a function, it runs a change
 * in a transaction of its own; `grouped` runs it as one unit of a group commit.
 * It is the scheduler's `TransactionPort`.
 */
export interface UnitOfWork {
  /** Runs `fn` in its own transaction, durable when it returns (inside another unit: in that one). */
  <T>(requestId: string, fn: (work: Work) => T): T;
  /**
   * Runs `fn` now as one unit of a group commit, and resolves once the group is
   * durable (API requests answer only then). A refused change throws at once,
   * having written nothing. Inside another unit, it joins that one.
   */
  grouped<T>(requestId: string, fn: (work: Work) => T): Promise<T>;
  /** Calls `hook` (the webhook outbox) for every event recorded from now on, inside its transaction; replaces any earlier hook. */
  onEventRecorded(hook: EventRecordedHook): void;
}

/**
 * The unit of work of one instance; `ids` makes the events' ids. The outbox, which schedules
 * through a scheduler that commits through this unit of work, joins through `onEventRecorded`.
 */
export function createUnitOfWork(store: Store, bus: Bus, clock: Clock, ids: Ids): UnitOfWork {
  let eventRecorded: EventRecordedHook | undefined;
  let current: { work: Work; events: EventCreated[]; after: (() => void)[] } | undefined;

  function recordEvent(requestId: string, events: EventCreated[], event: NewEvent): StoredEvent {
    const id = ids.newId("evt");
    const createdAt = clock.nowIso();
    const resource: EventResource = {
      id,
      object: "event",
      type: event.type,
      created_at: createdAt,
      request_id: requestId,
      data: maskValue(event.data) as EventResource["data"],
    };
    const body = JSON.stringify(resource);
    const stored = store.events.insert({
      id,
      company_id: event.companyId,
      type: event.type,
      object_id: event.objectId,
      request_id: requestId,
      created_at: createdAt,
      body,
    });
    events.push(announced(stored, eventRecorded?.(stored) ?? []));
    return stored;
  }

  /** Runs `fn` with a fresh Work inside `transact`, then announces its events once committed. */
  function within<T, R>(requestId: string, fn: (work: Work) => T, transact: (body: () => T) => R, announce: (result: R, done: () => void) => R): R {
    const events: EventCreated[] = [];
    const after: (() => void)[] = [];
    const work: Work = {
      requestId,
      recordEvent: (event) => recordEvent(requestId, events, event),
      afterCommit: (callback) => void after.push(callback),
    };
    current = { work, events, after };
    let result: R;
    try {
      result = transact(() => fn(work));
    } finally {
      current = undefined;
    }
    return announce(result, () => {
      for (const event of events) bus.emit("event.created", event);
      for (const callback of after) callback();
    });
  }

  function run<T>(requestId: string, fn: (work: Work) => T): T {
    if (current) return fn(current.work);
    return within(
      requestId,
      fn,
      (body) => store.transaction(body),
      (result, done) => (done(), result),
    );
  }

  function grouped<T>(requestId: string, fn: (work: Work) => T): Promise<T> {
    if (current) return Promise.resolve(fn(current.work));
    return within(
      requestId,
      fn,
      (body) => {
        const { result, committed } = store.unit(body);
        return committed.then(() => result);
      },
      (promise, done) => promise.then((result) => (done(), result)),
    );
  }

  return Object.assign(run, {
    grouped,
    onEventRecorded(hook: EventRecordedHook) {
      eventRecorded = hook;
    },
  });
}

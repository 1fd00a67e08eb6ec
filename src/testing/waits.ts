import type { Bus, DeliveriesStopped, DeliveryAttempted, EventCreated } from "../bus.js";
import { eventResource } from "../services/events.js";
import type { Store } from "../store/index.js";
import type { StoredEvent } from "../store/repos/events.js";
import { deliveriesOf, type DeliveryView } from "../webhooks/deliveries-view.js";
import type { EventRecord, RecordedEvent } from "./event-record.js";
import {
  describeFilter,
  eventMatcher,
  matchesDelivery,
  matchesEvent,
  waitTimeout,
  webhookMatcher,
  type DeliveryFacts,
  type EventFacts,
  type WebhookMatcher,
} from "./filters.js";
import { PaysimTimeoutError } from "./timeout-error.js";
import type { DeliveredWebhook, PaysimDelivery, PaysimEvent, PaysimEvents, PaysimWebhooks } from "./types.js";

/** How many events or deliveries a timeout's message lists. */
const LAST_SHOWN = 10;

const asEvent = (row: StoredEvent) => eventResource(row) as unknown as PaysimEvent;
const factsOf = (row: StoredEvent): EventFacts => ({ type: row.type, objectId: row.object_id });
/** An attempt has ended once it has a status code or an error; one in flight has neither. */
const ended = (attempt: DeliveryView["attempts"][number]) => attempt.status_code !== null || attempt.error !== null;
const deliveryFacts = (view: DeliveryView): DeliveryFacts => ({ url: view.url, status: view.status, endedAttempts: view.attempts.filter(ended).length });
// The store's view is the public one field for field: this keeps the two from drifting apart.
const asDelivery = (view: DeliveryView): PaysimDelivery => view;

/** A wait in progress: how it settles, and how it lets go of everything it holds. */
interface Pending {
  fail(error: Error): void;
}

/**
 * `events.list`, `events.waitFor` and `webhooks.waitFor` of a running instance (SPEC §12.1). What
 * already happened is read from the store once, in the same turn as the wait starts listening on
 * the bus, so nothing falls between the two; after that the bus says what happens. `close()`
 * rejects the waits still running and removes their listeners.
 */
export function createWaits({ bus, store, record }: { bus: Bus; store: Store; record: EventRecord }) {
  const pending = new Set<Pending>();
  let closed = false;

  /** The recorded events still in the store (a reset deletes them), oldest first. */
  function present(): StoredEvent[] {
    const rows: StoredEvent[] = [];
    const gone = new Set<string>();
    for (const entry of record.entries()) {
      const row = store.events.byId(entry.companyId, entry.id);
      if (row) rows.push(row);
      else gone.add(entry.id);
    }
    record.forget(gone);
    return rows.sort((a, b) => a.seq - b.seq);
  }

  function lastEvents(): string {
    const rows = present().slice(-LAST_SHOWN);
    if (rows.length === 0) return "No event has happened since paysim started (or was last reset).";
    return [`The last ${rows.length} event(s), oldest first:`, ...rows.map((row) => `  ${row.type} ${row.object_id ?? "(no object)"}`)].join("\n");
  }

  function lastDeliveries(): string {
    const shown: string[] = [];
    const rows = present();
    for (let i = rows.length - 1; i >= 0 && shown.length < LAST_SHOWN; i--) {
      const views = deliveriesOf(store, rows[i]!.id);
      for (let j = views.length - 1; j >= 0 && shown.length < LAST_SHOWN; j--) shown.unshift(describeDelivery(rows[i]!.type, views[j]!));
    }
    if (shown.length === 0) return "No delivery has been made since paysim started (or was last reset).";
    return [`The last ${shown.length} delivery(ies), oldest first:`, ...shown].join("\n");
  }

  /**
   * Resolves with what `check` finds now or on a later bus message; rejects once `timeoutMs` real
   * milliseconds pass, or when paysim closes. Every listener and the timer go when it settles.
   */
  function wait<T>(what: string, filter: unknown, timeoutMs: number, now: () => T | undefined, listen: (settle: (value: T) => void) => () => void, history: () => string): Promise<T> {
    if (closed) return Promise.reject(new Error(`paysim is closed: cannot wait for ${what} matching ${describeFilter(filter)}.`));
    const found = now();
    if (found !== undefined) return Promise.resolve(found);
    return new Promise<T>((resolve, reject) => {
      const release = () => {
        clearTimeout(timer);
        unlisten();
        pending.delete(entry);
      };
      const entry: Pending = {
        fail(error) {
          release();
          reject(error);
        },
      };
      const unlisten = listen((value) => {
        release();
        resolve(value);
      });
      const timer = setTimeout(() => {
        entry.fail(new PaysimTimeoutError(`No ${what} matched ${describeFilter(filter)} within ${timeoutMs} ms.\n${history()}`));
      }, timeoutMs);
      pending.add(entry);
    });
  }

  /** The first delivery already matching, in event order. */
  function deliveryNow(matcher: WebhookMatcher): DeliveredWebhook | undefined {
    for (const row of present()) {
      if (!matchesEvent(matcher, factsOf(row))) continue;
      const view = deliveriesOf(store, row.id).find((candidate) => matchesDelivery(matcher, factsOf(row), deliveryFacts(candidate)));
      if (view) return { event: asEvent(row), delivery: asDelivery(view) };
    }
    return undefined;
  }

  /** A delivery and its event as the store has them now, if it matches. */
  function deliveryIfMatching(matcher: WebhookMatcher, deliveryId: string, facts: (view: DeliveryView) => DeliveryFacts): DeliveredWebhook | undefined {
    const row = store.deliveries.byId(deliveryId);
    const event = row && store.events.byId(row.company_id, row.event_id);
    const view = event && deliveriesOf(store, event.id).find((candidate) => candidate.id === deliveryId);
    if (!event || !view || !matchesDelivery(matcher, factsOf(event), facts(view))) return undefined;
    return { event: asEvent(event), delivery: asDelivery(view) };
  }

  const events: PaysimEvents = {
    async list(filter) {
      const matcher = eventMatcher(filter);
      if (closed) throw new Error("paysim is closed: its events can no longer be listed.");
      return present()
        .filter((row) => matchesEvent(matcher, factsOf(row)))
        .map(asEvent);
    },
    async waitFor(filter, options) {
      const matcher = eventMatcher(filter);
      const timeoutMs = waitTimeout(options);
      return wait(
        "event",
        filter,
        timeoutMs,
        () => {
          const row = present().find((candidate) => matchesEvent(matcher, factsOf(candidate)));
          return row && asEvent(row);
        },
        (settle) => {
          const onEvent = (event: EventCreated) => {
            if (!matchesEvent(matcher, event)) return;
            const row = store.events.byId(event.companyId, event.id);
            if (row) settle(asEvent(row));
          };
          bus.on("event.created", onEvent);
          return () => void bus.off("event.created", onEvent);
        },
        lastEvents,
      );
    },
  };

  const webhooks: PaysimWebhooks = {
    async waitFor(filter, options) {
      const matcher = webhookMatcher(filter);
      const timeoutMs = waitTimeout(options);
      return wait(
        "webhook delivery",
        filter,
        timeoutMs,
        () => deliveryNow(matcher),
        (settle) => {
          // The message's own status and count: a later attempt may already have changed the row.
          const onAttempt = (attempted: DeliveryAttempted) => {
            const found = deliveryIfMatching(matcher, attempted.deliveryId, () => ({ url: attempted.url, status: attempted.status, endedAttempts: attempted.attempts }));
            if (found) settle(found);
          };
          const onStopped = (stopped: DeliveriesStopped) => {
            for (const deliveryId of stopped.deliveryIds) {
              const found = deliveryIfMatching(matcher, deliveryId, deliveryFacts);
              if (found) return settle(found);
            }
          };
          bus.on("delivery.attempted", onAttempt);
          bus.on("deliveries.stopped", onStopped);
          return () => {
            bus.off("delivery.attempted", onAttempt);
            bus.off("deliveries.stopped", onStopped);
          };
        },
        lastDeliveries,
      );
    },
  };

  return {
    events,
    webhooks,
    /** Rejects the waits still running (their listeners and timers go) and stops the record. */
    close() {
      if (closed) return;
      closed = true;
      for (const entry of [...pending]) entry.fail(new Error("paysim closed while a wait was running."));
      record.stop();
    },
  };
}

/** One line of a timeout's list: the event type, where it went, and how it stands. */
function describeDelivery(type: string, view: DeliveryView): string {
  const last = view.attempts.filter(ended).at(-1);
  const outcome = last === undefined ? "no attempt ended yet" : last.status_code !== null ? `last status ${last.status_code}` : `last attempt got no answer (${last.error})`;
  return `  ${type} ${view.url} ${view.status}, ${outcome}`;
}

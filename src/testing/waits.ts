import type { Bus, BusEvents, DeliveriesStopped, DeliveryAttempted, EventCreated } from "../bus.js";
import { ApiError } from "../domain/errors.js";
import { listensTo } from "../domain/events.js";
import { eventResource } from "../resources/events/service.js";
import type { Timers } from "../runtime/timers.js";
import type { Store } from "../store/index.js";
import type { StoredEvent } from "../resources/events/store.js";
import { deliveriesOf, type DeliveryView } from "../resources/deliveries/service.js";
import {
  describeFilter,
  eventMatcher,
  matchesDelivery,
  matchesEvent,
  waitTimeout,
  webhookMatcher,
  type DeliveryFacts,
  type EventFacts,
  type EventMatcher,
  type WebhookMatcher,
} from "./filters.js";
import { PaysimTimeoutError } from "./timeout-error.js";
import type { DeliveredWebhook, EventFilter, PaysimDelivery, PaysimEvent, PaysimEvents, PaysimWebhooks, WebhookFilter } from "./types.js";

/** How many events or deliveries a timeout's message lists. */
const LAST_SHOWN = 10;

/** A matcher every event matches. */
const EVERY_EVENT: EventMatcher = { types: undefined, objectId: undefined };
/** The events a timeout's message lists for a wait: all of its company's, whatever the rest of its filter. */
const ofCompany = ({ companyId }: EventMatcher): EventMatcher => ({ ...EVERY_EVENT, companyId });

const asEvent = (row: StoredEvent) => eventResource(row) as unknown as PaysimEvent;
const factsOf = (row: StoredEvent): EventFacts => ({ type: row.type, objectId: row.object_id, companyId: row.company_id });
/** An attempt has ended once it has a status code or an error; one in flight has neither. */
const ended = (attempt: DeliveryView["attempts"][number]) => attempt.status_code !== null || attempt.error !== null;
function deliveryFacts(view: DeliveryView, resent: boolean): DeliveryFacts {
  const done = view.attempts.filter(ended);
  return {
    resent,
    url: view.url,
    status: view.status,
    endedAttempts: done.length,
    attemptCount: done.filter((attempt) => attempt.chaos !== "duplicate").length,
    chaosMarks: done.flatMap((attempt) => (attempt.chaos === null ? [] : [attempt.chaos])),
  };
}
// The store's view is the public one field for field: this keeps the two from drifting apart.
const asDelivery = (view: DeliveryView): PaysimDelivery => view;

/** A delivery and its event, as the store has them. */
export interface WebhookWaitRow {
  event: StoredEvent;
  delivery: DeliveryView;
}

/** A wait in progress: how it settles, and how it lets go of everything it holds. */
interface Pending {
  fail(error: Error): void;
  /** Fails it because paysim closed. */
  close(): void;
}

/** What a wait rejects with when it times out or paysim closes: the in-process waits' Errors, or the API's errors. */
interface WaitErrors {
  timeout(message: string): Error;
  closed(message: string): Error;
}

const IN_PROCESS_ERRORS: WaitErrors = { timeout: (message) => new PaysimTimeoutError(message), closed: (message) => new Error(message) };
const API_ERRORS: WaitErrors = {
  timeout: (message) => new ApiError("wait_timeout", message),
  closed: (message) => new ApiError("shutting_down", `${message} Start paysim again and repeat the wait.`),
};

/** How one wait is asked for: its filter as messages show it, its timeout, what ends it early and how it fails. */
interface WaitRequest {
  described: string;
  timeoutMs: number;
  signal: AbortSignal | undefined;
  errors: WaitErrors;
}

/** The bus messages the waits listen to. */
type Heard = "event.created" | "delivery.attempted" | "deliveries.stopped";

/**
 * One bus listener for every wait on one kind of message, attached while some wait listens: a
 * thousand waits are a thousand entries in a set, not a thousand listeners on the bus. `shared`
 * is made once per message, for what every wait would otherwise read from the store alike.
 */
function fanOut<K extends Heard, S>(bus: Bus, name: K, shared: () => S) {
  type Message = BusEvents[K][0];
  const waiting = new Set<(message: Message, shared: S) => void>();
  const onMessage = (message: Message) => {
    const once = shared();
    for (const listener of [...waiting]) listener(message, once);
  };
  const on = bus.on.bind(bus) as (name: K, listener: (message: Message) => void) => Bus;
  const off = bus.off.bind(bus) as (name: K, listener: (message: Message) => void) => Bus;
  return (listener: (message: Message, shared: S) => void): (() => void) => {
    if (waiting.size === 0) on(name, onMessage);
    waiting.add(listener);
    return () => {
      waiting.delete(listener);
      if (waiting.size === 0) off(name, onMessage);
    };
  };
}

/** A delivery with its event and the event's deliveries as the store has them, read at most once per bus message; `resent`: whether a resend made it. */
type DeliveryLookup = (deliveryId: string) => { event: StoredEvent; views: DeliveryView[]; resent: boolean } | undefined;

/**
 * `events.list`, `events.waitFor` and `webhooks.waitFor` of a running instance (docs/testing.md). What
 * already happened is read from the store once, in the same turn as the wait starts listening on
 * the bus, so nothing falls between the two; after that the bus says what happens. `close()`
 * rejects the waits still running and removes their listeners.
 */
export function createWaits({ bus, store, afterSeq, timers }: { bus: Bus; store: Store; afterSeq: number; timers: Timers }) {
  const pending = new Set<Pending>();
  let closed = false;
  // The instance's events are those after `afterSeq` (the last one a file database held when it
  // started; 0 for an in-memory or imported one): the store is read, nothing is kept per event. A
  // reset can delete the newest rows, after which SQLite numbers new ones from below `afterSeq`:
  // what is left then is all older, so the line moves down to it.
  const onReset = () => void (afterSeq = Math.min(afterSeq, store.events.lastSeq()));
  bus.on("sandbox.reset", onReset);
  const query = (matcher: EventMatcher) => ({ afterSeq, companyId: matcher.companyId, types: matcher.types, objectId: matcher.objectId });

  /** A lookup that reads each delivery once, however many waits ask. */
  const deliveryLookup = (): DeliveryLookup => {
    const read = new Map<string, ReturnType<DeliveryLookup>>();
    return (deliveryId) => {
      if (!read.has(deliveryId)) {
        const row = store.deliveries.byId(deliveryId);
        const event = row && store.events.byId(row.company_id, row.event_id);
        read.set(deliveryId, event ? { event, views: deliveriesOf(store, event.id), resent: row.resent === 1 } : undefined);
      }
      return read.get(deliveryId);
    };
  };
  const onEventCreated = fanOut(bus, "event.created", () => new Map<string, StoredEvent | undefined>());
  const onDeliveryAttempted = fanOut(bus, "delivery.attempted", deliveryLookup);
  const onDeliveriesStopped = fanOut(bus, "deliveries.stopped", deliveryLookup);

  /** The instance's events `matcher` could match, oldest first, from the store. */
  function present(matcher: EventMatcher = EVERY_EVENT): StoredEvent[] {
    return store.events.oldest(query(matcher));
  }

  function lastEvents(matcher: EventMatcher): string {
    const rows = store.events.newest(query(matcher), LAST_SHOWN);
    if (rows.length === 0) return "No event has happened since paysim started (or was last reset).";
    return [`The last ${rows.length} event(s), oldest first:`, ...rows.map((row) => `  ${row.type} ${row.object_id ?? "(no object)"}`)].join("\n");
  }

  function lastDeliveries(matcher: EventMatcher): string {
    const shown: string[] = [];
    const rows = present(matcher);
    for (let i = rows.length - 1; i >= 0 && shown.length < LAST_SHOWN; i--) {
      const views = deliveriesOf(store, rows[i]!.id);
      for (let j = views.length - 1; j >= 0 && shown.length < LAST_SHOWN; j--) shown.unshift(describeDelivery(rows[i]!.type, views[j]!));
    }
    if (shown.length === 0) return "No delivery has been made since paysim started (or was last reset).";
    return [`The last ${shown.length} delivery(ies), oldest first:`, ...shown].join("\n");
  }

  /**
   * Resolves with what `now` finds now or on a later bus message; rejects once `timeoutMs` real
   * milliseconds pass on `timers`, when paysim closes, or with the signal's reason when it aborts. Every
   * listener and the timer go when it settles.
   */
  function wait<T>(
    what: string,
    request: WaitRequest,
    now: () => T | undefined,
    listen: (settle: (value: T) => void) => () => void,
    history: () => string,
  ): Promise<T> {
    const { described, timeoutMs, signal, errors } = request;
    if (closed) return Promise.reject(errors.closed(`paysim is closed: cannot wait for ${what} matching ${described}.`));
    if (signal?.aborted) return Promise.reject(signal.reason as Error);
    const found = now();
    if (found !== undefined) return Promise.resolve(found);
    return new Promise<T>((resolve, reject) => {
      const release = () => {
        timers.clearTimeout(timer);
        unlisten();
        signal?.removeEventListener("abort", onAbort);
        pending.delete(entry);
      };
      const entry: Pending = {
        fail(error) {
          release();
          reject(error);
        },
        close: () => entry.fail(errors.closed("paysim closed while a wait was running.")),
      };
      const onAbort = () => entry.fail(signal!.reason as Error);
      const unlisten = listen((value) => {
        release();
        resolve(value);
      });
      const timer = timers.setTimeout(() => {
        entry.fail(errors.timeout(`No ${what} matched ${described} within ${timeoutMs} ms.\n${history()}`));
      }, timeoutMs);
      signal?.addEventListener("abort", onAbort, { once: true });
      pending.add(entry);
    });
  }

  /** The first event matching, before or after the call: the store's row. */
  function eventWait(matcher: EventMatcher, request: WaitRequest): Promise<StoredEvent> {
    return wait(
      "event",
      request,
      () => store.events.oldest(query(matcher), 1)[0],
      (settle) =>
        onEventCreated((event: EventCreated, rows) => {
          if (!matchesEvent(matcher, event)) return;
          if (!rows.has(event.id)) rows.set(event.id, store.events.byId(event.companyId, event.id));
          const row = rows.get(event.id);
          if (row) settle(row);
        }),
      () => lastEvents(ofCompany(matcher)),
    );
  }

  /** The first delivery matching, before or after the call: the store's rows. */
  function webhookWait(matcher: WebhookMatcher, request: WaitRequest): Promise<WebhookWaitRow> {
    return wait(
      "webhook delivery",
      request,
      () => deliveryNow(matcher),
      (settle) => {
        // The message's own status and count: a later attempt may already have changed the row.
        const stopAttempts = onDeliveryAttempted((attempted: DeliveryAttempted, lookup) => {
          // What the message says is checked first: most waits are not for this delivery at all.
          if (matcher.types !== undefined && !matcher.types.includes(attempted.eventType)) return;
          if (matcher.url !== undefined && matcher.url !== attempted.url) return;
          const found = deliveryIfMatching(matcher, attempted.deliveryId, lookup, (view, resent) => {
            const facts = deliveryFacts(view, resent);
            const chaosMarks = attempted.attempt.chaos ? [...facts.chaosMarks, attempted.attempt.chaos] : facts.chaosMarks;
            return { ...facts, status: attempted.status, endedAttempts: attempted.attempts, attemptCount: attempted.attempts, chaosMarks };
          });
          if (found) settle(found);
        });
        const stopStopped = onDeliveriesStopped((stopped: DeliveriesStopped, lookup) => {
          for (const deliveryId of stopped.deliveryIds) {
            const found = deliveryIfMatching(matcher, deliveryId, lookup, deliveryFacts);
            if (found) return settle(found);
          }
        });
        return () => {
          stopAttempts();
          stopStopped();
        };
      },
      () => [endpointsCause(matcher), lastDeliveries(ofCompany(matcher))].filter((line) => line !== undefined).join("\n"),
    );
  }

  /**
   * Why no delivery can match, when the endpoints say so as the wait ends: there is none, none at
   * the url asked for, or none listening to the types asked for. Said at the timeout, not at once:
   * an endpoint added while the wait runs receives the events after it.
   */
  function endpointsCause(matcher: WebhookMatcher): string | undefined {
    const endpoints = matcher.companyId === undefined ? store.webhookEndpoints.everyLive() : store.webhookEndpoints.live(matcher.companyId);
    const add = "an endpoint receives only the events after it is added (POST /v1/webhook_endpoints, or --forward-to).";
    if (endpoints.length === 0) return `No webhook endpoint is registered, so nothing is delivered: ${add}`;
    const { types, url } = matcher;
    const atUrl = url === undefined ? endpoints : endpoints.filter((endpoint) => endpoint.url === url);
    if (atUrl.length === 0) return `No webhook endpoint has the url ${url} (the endpoints: ${endpoints.map((endpoint) => endpoint.url).join(", ")}).`;
    if (types === undefined) return undefined;
    const listening = atUrl.filter((endpoint) => types.some((type) => listensTo(JSON.parse(endpoint.enabled_events) as string[], type)));
    if (listening.length > 0) return undefined;
    const enabled = atUrl.map((endpoint) => `${endpoint.url} listens to ${(JSON.parse(endpoint.enabled_events) as string[]).join(", ")}`).join("; ");
    return `No webhook endpoint${url === undefined ? "" : " with that url"} listens to ${types.join(" or ")}, so nothing of that type is delivered (${enabled}): ${add}`;
  }

  /** The first delivery already matching, in event order. */
  function deliveryNow(matcher: WebhookMatcher): WebhookWaitRow | undefined {
    for (const row of present(matcher)) {
      // Which deliveries a resend made is read only for a wait that asks.
      const resent = matcher.resent === undefined ? new Set<string>() : resentDeliveries(row.id);
      const view = deliveriesOf(store, row.id).find((candidate) => matchesDelivery(matcher, factsOf(row), deliveryFacts(candidate, resent.has(candidate.id))));
      if (view) return { event: row, delivery: view };
    }
    return undefined;
  }

  /** A delivery and its event as the store has them now, if it matches. */
  function deliveryIfMatching(
    matcher: WebhookMatcher,
    deliveryId: string,
    lookup: DeliveryLookup,
    facts: (view: DeliveryView, resent: boolean) => DeliveryFacts,
  ): WebhookWaitRow | undefined {
    const found = lookup(deliveryId);
    const view = found?.views.find((candidate) => candidate.id === deliveryId);
    if (!found || !view || !matchesDelivery(matcher, factsOf(found.event), facts(view, found.resent))) return undefined;
    return { event: found.event, delivery: view };
  }

  /** The ids of the event's deliveries that a resend made. */
  const resentDeliveries = (eventId: string): Set<string> =>
    new Set(
      store.deliveries
        .forEvent(eventId)
        .filter((delivery) => delivery.resent === 1)
        .map((delivery) => delivery.id),
    );

  const inProcess = (filter: unknown, options: unknown): WaitRequest => ({
    described: describeFilter(filter),
    timeoutMs: waitTimeout(options),
    signal: undefined,
    errors: IN_PROCESS_ERRORS,
  });
  const asDelivered = ({ event, delivery }: WebhookWaitRow): DeliveredWebhook => ({ event: asEvent(event), delivery: asDelivery(delivery) });

  const events: PaysimEvents = {
    async list(filter) {
      const matcher = eventMatcher(filter);
      if (closed) throw new Error("paysim is closed: its events can no longer be listed.");
      return present(matcher).map(asEvent);
    },
    async waitFor(filter, options) {
      const matcher = eventMatcher(filter);
      return asEvent(await eventWait(matcher, inProcess(filter, options)));
    },
  };

  const webhooks: PaysimWebhooks = {
    async waitFor(filter, options) {
      const matcher = webhookMatcher(filter);
      return asDelivered(await webhookWait(matcher, inProcess(filter, options)));
    },
  };

  /**
   * The waits over HTTP (`GET /v1/sandbox/events/wait`, `…/webhooks/wait`): one company's
   * events only, its own in a timeout's list too. They reject with the API's errors
   * (`wait_timeout`, `shutting_down`), or with the signal's reason once it aborts (the client left).
   * `described` is the filter as the message names it.
   */
  const companyWaits = {
    event(companyId: string, filter: EventFilter, request: { described: string; timeoutMs: number; signal: AbortSignal }): Promise<StoredEvent> {
      return eventWait({ ...eventMatcher(filter), companyId }, { ...request, errors: API_ERRORS });
    },
    webhook(companyId: string, filter: WebhookFilter, request: { described: string; timeoutMs: number; signal: AbortSignal }): Promise<WebhookWaitRow> {
      return webhookWait({ ...webhookMatcher(filter), companyId }, { ...request, errors: API_ERRORS });
    },
  };

  return {
    events,
    webhooks,
    companyWaits,
    /** How many waits are running: none is left behind by one that ended. */
    running: () => pending.size,
    /** Rejects the waits still running (their listeners and timers go) and stops listening. */
    close() {
      if (closed) return;
      closed = true;
      for (const entry of [...pending]) entry.close();
      bus.off("sandbox.reset", onReset);
    },
  };
}

/** One line of a timeout's list: the event type, where it went, and how it stands. */
function describeDelivery(type: string, view: DeliveryView): string {
  const last = view.attempts.filter(ended).at(-1);
  const outcome =
    last === undefined ? "no attempt ended yet" : last.status_code !== null ? `last status ${last.status_code}` : `last attempt got no answer (${last.error})`;
  return `  ${type} ${view.url} ${view.status}, ${outcome}`;
}

export type Waits = ReturnType<typeof createWaits>;

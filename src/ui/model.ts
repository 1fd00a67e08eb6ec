import type { AttemptResult, DeliveriesStopped, DeliveryAttempted, EventCreated, RequestFault, RequestLogged, RequestStarted, SandboxReset } from "../bus.js";
import { maskText } from "../domain/masking.js";
import { deliveryStateOf, isFinished, type DeliveryState } from "./delivery-state.js";

/**
 * The live view's state, kept outside React: pure reducers over what the bus
 * announced, bounded whatever the traffic. Events whose deliveries are all
 * finished, and requests, become `unprinted` lines (printed once, then
 * dropped); events still waiting on a delivery stay `inFlight` and are redrawn.
 *
 * Cause before effect: a request is logged once its answer is final, after the
 * events it made were announced. An event finished while the request that made
 * it is still open waits under that request (`open`) and is printed right after
 * the request's line. Dates: see `takePrinted`.
 */

export const LIMITS = {
  /** Events waiting on a delivery that the view tracks; older ones are dropped from it. */
  inFlight: 100,
  /** Finished lines waiting for the next render; in a burst the oldest are summarised. */
  unprinted: 150,
  /** Events remembered (type, object) for deliveries that arrive after the event was printed. */
  recent: 500,
  /** Requests still running whose finished events wait for their line; past this the oldest one's are printed. */
  open: 500,
} as const;

/** One delivery of an event, as the live view tracks it from the bus. */
export interface TrackedDelivery {
  deliveryId: string;
  endpointId: string;
  url: string;
  state: DeliveryState;
}

export interface EventView {
  id: string;
  /** The request that made it; null when unknown (known only from a delivery). */
  requestId: string | null;
  type: string;
  objectId: string | null;
  /** Null when the event is known only from a delivery. */
  companyId: string | null;
  /** Null when the event is known only from a delivery (e.g. one from before this start). */
  createdAt: string | null;
  deliveries: readonly TrackedDelivery[];
}

export interface RequestView {
  requestId: string;
  method: string;
  path: string;
  status: number;
  durationMs: number;
  /** Clock time the request was logged (ISO). */
  at: string;
  /** The fault rule that hit it (docs/faults.md), if one did. */
  fault?: RequestFault;
}

/**
 * A finished line: printed once above the live region. `dated`: its time is of a day before the
 * lines printed above it, so it shows its date (set by `takePrinted`).
 */
export type Printed =
  | { kind: "request"; request: RequestView; dated?: boolean }
  | { kind: "event"; event: EventView; dated?: boolean }
  /** Finished lines dropped unprinted in a burst, counted. */
  | { kind: "skipped"; events: number; requests: number }
  /** A sandbox reset: what it deleted, of one company or (companyId null) of all. */
  | { kind: "reset"; reset: SandboxReset; at: string; dated?: boolean }
  /** The lines below are of a later day (YYYY-MM-DD, UTC) than those above: the clock was advanced, or midnight passed. */
  | { kind: "day"; day: string };

export interface EventFacts {
  id: string;
  /** The request that made it (the API's `req_…`, or the scheduler's own id). */
  requestId?: string;
  type: string;
  objectId: string | null;
  companyId: string;
  createdAt: string;
  /** The deliveries made for it: each is shown as "sending…" until its first attempt reports. */
  deliveries: readonly { deliveryId: string; endpointId: string; url: string }[];
}

/** What the bus said of a delivery's attempt, masked, with its result as `last`. */
export type DeliveryFacts = Omit<DeliveryAttempted, "attempt" | "companyId" | "eventRequestId"> & { last: AttemptResult };

export type LiveAction =
  | { kind: "started"; requestId: string }
  | { kind: "event"; event: EventFacts }
  | { kind: "delivery"; delivery: DeliveryFacts }
  | { kind: "stopped"; deliveryIds: readonly string[] }
  | { kind: "request"; request: RequestView }
  | { kind: "reset"; reset: SandboxReset; at: string };

type EventSummary = Pick<EventView, "id" | "requestId" | "type" | "objectId" | "companyId" | "createdAt">;

export interface LiveModel {
  /** Oldest first (a Map keeps insertion order; an update keeps the place). */
  readonly inFlight: ReadonlyMap<string, EventView>;
  readonly recent: ReadonlyMap<string, EventSummary>;
  readonly unprinted: readonly Printed[];
  readonly skipped: { readonly events: number; readonly requests: number };
  /** In-flight events dropped from the view to stay bounded. */
  readonly dropped: number;
  /** Requests still running (oldest first), with the finished events of theirs that wait for their line. */
  readonly open: ReadonlyMap<string, readonly Printed[]>;
  /** The latest day (YYYY-MM-DD) of the lines handed out to print; null before the first. */
  readonly day: string | null;
}

// --- actions from bus payloads: small copies, masked, without the event body ---

export function eventAction(event: EventCreated): LiveAction {
  return {
    kind: "event",
    event: {
      id: event.id,
      requestId: event.requestId,
      type: event.type,
      objectId: event.objectId,
      companyId: event.companyId,
      createdAt: event.createdAt,
      deliveries: event.deliveries.map((d) => ({ deliveryId: d.deliveryId, endpointId: d.endpointId, url: maskText(d.url) })),
    },
  };
}

export function deliveryAction(update: DeliveryAttempted): LiveAction {
  const { attempt } = update;
  return {
    kind: "delivery",
    delivery: {
      deliveryId: update.deliveryId,
      eventId: update.eventId,
      eventType: update.eventType,
      endpointId: update.endpointId,
      url: maskText(update.url),
      status: update.status,
      attempts: update.attempts,
      nextAttemptMs: update.nextAttemptMs,
      last: {
        statusCode: attempt.statusCode,
        error: attempt.error === null ? null : maskText(attempt.error),
        durationMs: attempt.durationMs,
        chaos: attempt.chaos ?? null,
      },
    },
  };
}

export function stoppedAction(stopped: DeliveriesStopped): LiveAction {
  return { kind: "stopped", deliveryIds: stopped.deliveryIds };
}

export function resetAction(reset: SandboxReset, atIso: string): LiveAction {
  return { kind: "reset", reset: { companyId: reset.companyId, deleted: { ...reset.deleted } }, at: atIso };
}

export function startedAction(started: RequestStarted): LiveAction {
  return { kind: "started", requestId: started.requestId };
}

export function requestAction(request: RequestLogged, atIso: string): LiveAction {
  return {
    kind: "request",
    request: {
      requestId: request.requestId,
      method: request.method,
      path: maskText(request.path),
      status: request.status,
      durationMs: request.durationMs,
      at: atIso,
      ...(request.fault && { fault: request.fault }),
    },
  };
}

// --- reducers ---

export function createLiveModel(): LiveModel {
  return {
    inFlight: new Map(),
    recent: new Map(),
    unprinted: [],
    skipped: { events: 0, requests: 0 },
    dropped: 0,
    open: new Map(),
    day: null,
  };
}

type Draft = {
  inFlight: Map<string, EventView>;
  recent: Map<string, EventSummary>;
  unprinted: Printed[];
  skipped: { events: number; requests: number };
  dropped: number;
  open: Map<string, readonly Printed[]>;
  day: string | null;
};

/**
 * Applies a batch of actions (what the bus said since the last render). Pure:
 * `model` is not changed; the containers are copied once per batch, not per action.
 */
export function applyActions(model: LiveModel, actions: readonly LiveAction[]): LiveModel {
  const draft: Draft = {
    inFlight: new Map(model.inFlight),
    recent: new Map(model.recent),
    unprinted: [...model.unprinted],
    skipped: { ...model.skipped },
    dropped: model.dropped,
    open: new Map(model.open),
    day: model.day,
  };
  for (const action of actions) {
    if (action.kind === "started") onStarted(draft, action.requestId);
    else if (action.kind === "event") onEvent(draft, action.event);
    else if (action.kind === "delivery") onDelivery(draft, action.delivery);
    else if (action.kind === "stopped") onStopped(draft, new Set(action.deliveryIds));
    else if (action.kind === "reset") onReset(draft, action.reset, action.at);
    else onRequest(draft, action.request);
  }
  return draft;
}

export function reduce(model: LiveModel, action: LiveAction): LiveModel {
  return applyActions(model, [action]);
}

/**
 * The finished lines to print now (a burst's dropped ones summarised first), and the model without
 * them. Each line shows its time of day; when a line is of a later day than the lines printed
 * before it (the clock was advanced past midnight, or midnight passed), a `day` line comes first,
 * and a line of an earlier day (an event made before an advance, finished after it) shows its date.
 */
export function takePrinted(model: LiveModel): { printed: Printed[]; model: LiveModel } {
  const { events, requests } = model.skipped;
  if (model.unprinted.length === 0 && events === 0 && requests === 0) return { printed: [], model };
  const printed: Printed[] = events + requests > 0 ? [{ kind: "skipped", events, requests }] : [];
  let day = model.day;
  for (const line of model.unprinted) {
    const lineDay = dayOf(line);
    if (lineDay !== null && day !== null && lineDay > day) printed.push({ kind: "day", day: lineDay });
    if (lineDay !== null && day !== null && lineDay < day) printed.push({ ...line, dated: true } as Printed);
    else printed.push(line);
    if (lineDay !== null && (day === null || lineDay > day)) day = lineDay;
  }
  return { printed, model: { ...model, unprinted: [], skipped: { events: 0, requests: 0 }, day } };
}

/** The day (YYYY-MM-DD, UTC) of a line's time; null for a line without one. */
function dayOf(line: Printed): string | null {
  const at = line.kind === "request" ? line.request.at : line.kind === "event" ? line.event.createdAt : line.kind === "reset" ? line.at : null;
  return at === null ? null : at.slice(0, 10);
}

/**
 * The newest in-flight events that fit in `maxLines` lines (an event takes one
 * line plus one per delivery), oldest first, and how many tracked ones did not fit.
 */
export function visibleInFlight(model: LiveModel, maxLines: number): { events: EventView[]; hidden: number; atCapacity: boolean } {
  const all = [...model.inFlight.values()];
  const shown: EventView[] = [];
  let lines = 0;
  for (let i = all.length - 1; i >= 0; i--) {
    const event = all[i]!;
    const height = 1 + event.deliveries.length;
    if (lines + height > maxLines) break;
    lines += height;
    shown.push(event);
  }
  // At capacity, older in-flight events may have been dropped from the view (they come back when a delivery reports).
  return { events: shown.reverse(), hidden: all.length - shown.length, atCapacity: model.dropped > 0 && all.length >= LIMITS.inFlight };
}

/** A request began: the events it makes wait for its line. */
function onStarted(draft: Draft, requestId: string): void {
  draft.open.set(requestId, []);
  if (draft.open.size > LIMITS.open) {
    const [oldest, held] = draft.open.entries().next().value!;
    draft.open.delete(oldest);
    for (const line of held) print(draft, line);
  }
}

/** A request's answer is final: its line, then the events it made that finished meanwhile. */
function onRequest(draft: Draft, request: RequestView): void {
  print(draft, { kind: "request", request });
  const held = draft.open.get(request.requestId);
  draft.open.delete(request.requestId);
  for (const line of held ?? []) print(draft, line);
}

/** A finished event: held under its request while that one runs, else printed. */
function printEvent(draft: Draft, event: EventView): void {
  const held = event.requestId === null ? undefined : draft.open.get(event.requestId);
  // A new list: the model before this batch shares the old one.
  if (held && held.length < LIMITS.unprinted) draft.open.set(event.requestId!, [...held, { kind: "event", event }]);
  else print(draft, { kind: "event", event });
}

function onEvent(draft: Draft, facts: EventFacts): void {
  const summary: EventSummary = {
    id: facts.id,
    requestId: facts.requestId ?? null,
    type: facts.type,
    objectId: facts.objectId,
    companyId: facts.companyId,
    createdAt: facts.createdAt,
  };
  remember(draft, summary);
  const view: EventView = {
    ...summary,
    deliveries: facts.deliveries.map((d) => ({ ...d, state: { kind: "sending" } })),
  };
  if (view.deliveries.length === 0) printEvent(draft, view);
  else track(draft, view);
}

function onDelivery(draft: Draft, facts: DeliveryFacts): void {
  const existing = draft.inFlight.get(facts.eventId);
  const base: EventView = existing ?? {
    ...(draft.recent.get(facts.eventId) ?? { id: facts.eventId, requestId: null, type: facts.eventType, objectId: null, companyId: null, createdAt: null }),
    deliveries: [],
  };
  const state = deliveryStateOf(facts);
  const view: EventView = {
    ...base,
    deliveries: upsert(base.deliveries, { deliveryId: facts.deliveryId, endpointId: facts.endpointId, url: facts.url, state }),
  };
  settle(draft, view, existing !== undefined);
}

/** Deliveries stopped by their endpoint's deletion: the view stops waiting for them. */
function onStopped(draft: Draft, deliveryIds: ReadonlySet<string>): void {
  for (const event of [...draft.inFlight.values()]) {
    if (!event.deliveries.some((d) => deliveryIds.has(d.deliveryId) && !isFinished(d.state))) continue;
    const deliveries = event.deliveries.map((d) => (deliveryIds.has(d.deliveryId) && !isFinished(d.state) ? { ...d, state: stopped(d.state) } : d));
    settle(draft, { ...event, deliveries }, true);
  }
}

/**
 * A reset deleted the company's events with their deliveries: the view stops waiting for them and
 * says what went. Events known only from a delivery (company unknown) go too; should one of them
 * still be alive, its next attempt brings it back.
 */
function onReset(draft: Draft, reset: SandboxReset, at: string): void {
  const gone = (event: EventSummary) => reset.companyId === null || event.companyId === null || event.companyId === reset.companyId;
  for (const event of [...draft.inFlight.values()]) if (gone(event)) draft.inFlight.delete(event.id);
  for (const event of [...draft.recent.values()]) if (gone(event)) draft.recent.delete(event.id);
  print(draft, { kind: "reset", reset, at });
}

function stopped(state: DeliveryState): DeliveryState {
  if (state.kind === "failing") return { kind: "stopped", attempts: state.attempts, last: state.last };
  return { kind: "stopped", attempts: 0, last: null };
}

/** Replaces the same delivery, else adds it (a resend's, or one of an event from before this start). */
function upsert(deliveries: readonly TrackedDelivery[], next: TrackedDelivery): TrackedDelivery[] {
  const index = deliveries.findIndex((d) => d.deliveryId === next.deliveryId);
  if (index < 0) return [...deliveries, next];
  return deliveries.map((d, i) => (i === index ? next : d));
}

/** A finished event is printed; an unfinished one stays (in its place) or joins the in-flight list. */
function settle(draft: Draft, view: EventView, tracked: boolean): void {
  if (view.deliveries.every((d) => isFinished(d.state))) {
    draft.inFlight.delete(view.id);
    printEvent(draft, view);
  } else if (tracked) {
    draft.inFlight.set(view.id, view);
  } else {
    track(draft, view);
  }
}

function track(draft: Draft, view: EventView): void {
  if (draft.inFlight.size >= LIMITS.inFlight) {
    const oldest = draft.inFlight.keys().next().value!;
    draft.inFlight.delete(oldest);
    draft.dropped++;
  }
  draft.inFlight.set(view.id, view);
}

function remember(draft: Draft, summary: EventSummary): void {
  draft.recent.delete(summary.id);
  draft.recent.set(summary.id, summary);
  if (draft.recent.size > LIMITS.recent) draft.recent.delete(draft.recent.keys().next().value!);
}

function print(draft: Draft, line: Printed): void {
  draft.unprinted.push(line);
  if (draft.unprinted.length > LIMITS.unprinted) {
    const oldest = draft.unprinted.shift()!;
    if (oldest.kind === "event") draft.skipped.events++;
    else if (oldest.kind === "request") draft.skipped.requests++;
  }
}

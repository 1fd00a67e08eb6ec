import { describe, expect, it } from "vitest";
import {
  applyActions,
  createLiveModel,
  deliveryAction,
  eventAction,
  LIMITS,
  reduce,
  requestAction,
  resetAction,
  stoppedAction,
  takePrinted,
  visibleInFlight,
  type DeliveryFacts,
  type LiveAction,
  type LiveModel,
} from "../../src/ui/model.js";
import type { DeliveryAttempted } from "../../src/bus.js";
import { resetCounts } from "../helpers/registry.js";

const T0 = Date.parse("2026-05-01T12:00:00.000Z");
const ACME = "co_acme";

interface Endpoint {
  id: string;
  url: string;
}
const hooks: Endpoint = { id: "we_hooks", url: "http://127.0.0.1:3000/hooks" };
const second: Endpoint = { id: "we_second", url: "http://127.0.0.1:3001/hooks" };

/** An event as the bus announces it, with a delivery made to each of `endpoints` (id `del_<event>_<endpoint>`). */
function event(id: string, endpoints: readonly Endpoint[] = [hooks], type = "payment_intent.created", companyId = ACME): LiveAction {
  const deliveries = endpoints.map((e) => ({ deliveryId: `del_${id}_${e.id.slice(3)}`, endpointId: e.id, url: e.url }));
  return { kind: "event", event: { id, type, objectId: `pi_${id}`, companyId, createdAt: new Date(T0).toISOString(), deliveries } };
}

/** A sandbox reset of `companyId`'s activity (null: every company's). */
const reset = (companyId: string | null) => resetAction({ companyId, deleted: resetCounts({ payment_intents: 1, events: 2 }) }, new Date(T0).toISOString());

function delivery(eventId: string, overrides: Partial<DeliveryFacts> = {}): LiveAction {
  return {
    kind: "delivery",
    delivery: {
      deliveryId: `del_${eventId}_hooks`,
      eventId,
      eventType: "payment_intent.created",
      endpointId: hooks.id,
      url: hooks.url,
      status: "succeeded",
      attempts: 1,
      nextAttemptMs: null,
      last: { statusCode: 200, error: null, durationMs: 12 },
      ...overrides,
    },
  };
}

const failing = (eventId: string, attempts: number, statusCode: number | null = 500) =>
  delivery(eventId, {
    status: "pending",
    attempts,
    nextAttemptMs: T0 + 30_000,
    last: { statusCode, error: statusCode === null ? "connection refused" : null, durationMs: 5 },
  });

function request(method: string, path: string, status = 200): LiveAction {
  return { kind: "request", request: { requestId: `req_${path}`, method, path, status, durationMs: 1.5, at: new Date(T0).toISOString() } };
}

/** What a reader of the model sees: in-flight events with their delivery kinds, and the lines to print. */
function summary(model: LiveModel) {
  const { printed } = takePrinted(model);
  return {
    inFlight: [...model.inFlight.values()].map((e) => `${e.id}: ${e.deliveries.map((d) => `${d.endpointId}=${d.state.kind}`).join(" ")}`),
    printed: printed.map((p) =>
      p.kind === "request"
        ? `request ${p.request.method} ${p.request.path}`
        : p.kind === "event"
          ? `event ${p.event.id} ${p.event.type}: ${p.event.deliveries.map((d) => `${d.endpointId}=${d.state.kind}`).join(" ")}`.trimEnd()
          : p.kind === "reset"
            ? `reset ${p.reset.companyId ?? "all"}`
            : p.kind === "day"
              ? `day ${p.day}`
              : `skipped ${p.events} events, ${p.requests} requests`,
    ),
  };
}

describe("live view model", () => {
  const cases: { name: string; actions: LiveAction[]; inFlight: string[]; printed: string[] }[] = [
    {
      name: "an event with no delivery made for it is printed at once",
      actions: [event("evt_1", [])],
      inFlight: [],
      printed: ["event evt_1 payment_intent.created:"],
    },
    {
      name: "an event waits as 'sending' for each delivery the outbox made for it",
      actions: [event("evt_1", [hooks])],
      inFlight: ["evt_1: we_hooks=sending"],
      printed: [],
    },
    {
      name: "a delivered attempt replaces the 'sending' placeholder and prints the finished event",
      actions: [event("evt_1"), delivery("evt_1")],
      inFlight: [],
      printed: ["event evt_1 payment_intent.created: we_hooks=delivered"],
    },
    {
      name: "a failed attempt with a retry ahead keeps the event in flight",
      actions: [event("evt_1"), failing("evt_1", 1)],
      inFlight: ["evt_1: we_hooks=failing"],
      printed: [],
    },
    {
      name: "the seventh failed attempt gives up and prints the event",
      actions: [
        event("evt_1"),
        failing("evt_1", 1),
        delivery("evt_1", { status: "failed", attempts: 7, last: { statusCode: 500, error: null, durationMs: 4 } }),
      ],
      inFlight: [],
      printed: ["event evt_1 payment_intent.created: we_hooks=gave_up"],
    },
    {
      name: "an event stays in flight until every endpoint has finished",
      actions: [event("evt_1", [hooks, second]), delivery("evt_1")],
      inFlight: ["evt_1: we_hooks=delivered we_second=sending"],
      printed: [],
    },
    {
      name: "a delivery for an event the view never saw (e.g. from before this start) is shown under the delivery's event type",
      actions: [delivery("evt_old")],
      inFlight: [],
      printed: ["event evt_old payment_intent.created: we_hooks=delivered"],
    },
    {
      name: "a delivery the event was not announced with (a resend to a newer endpoint) is added to its event",
      actions: [event("evt_1", []), failing("evt_1", 1)],
      inFlight: ["evt_1: we_hooks=failing"],
      printed: ["event evt_1 payment_intent.created:"],
    },
    {
      name: "a resend is a second delivery to the same endpoint, shown beside the first",
      actions: [event("evt_1"), delivery("evt_1"), delivery("evt_1", { deliveryId: "del_resend" })],
      inFlight: [],
      printed: ["event evt_1 payment_intent.created: we_hooks=delivered", "event evt_1 payment_intent.created: we_hooks=delivered"],
    },
    {
      name: "requests are printed in order",
      actions: [request("POST", "/v1/payment_intents", 201), request("GET", "/v1/events", 401)],
      inFlight: [],
      printed: ["request POST /v1/payment_intents", "request GET /v1/events"],
    },
    {
      name: "deliveries stopped by their endpoint's deletion end what the view waited for from them",
      actions: [
        event("evt_1", [hooks, second]),
        failing("evt_1", 2),
        stoppedAction({ endpointId: hooks.id, reason: "endpoint_deleted", deliveryIds: ["del_evt_1_hooks"] }),
        delivery("evt_1", { deliveryId: "del_evt_1_second", endpointId: second.id, url: second.url }),
        event("evt_2", [second]),
      ],
      inFlight: ["evt_2: we_second=sending"],
      printed: ["event evt_1 payment_intent.created: we_hooks=stopped we_second=delivered"],
    },
    {
      name: "a reset of every company stops waiting for every in-flight event and says so",
      actions: [event("evt_1"), event("evt_2", [hooks], "payout.created", "co_other"), failing("evt_old", 2), reset(null)],
      inFlight: [],
      printed: ["reset all"],
    },
    {
      name: "a reset of one company drops its events (and those of unknown company), not another's",
      actions: [event("evt_1"), event("evt_2", [hooks], "payout.created", "co_other"), failing("evt_old", 2), reset("co_other")],
      inFlight: ["evt_1: we_hooks=sending"],
      printed: ["reset co_other"],
    },
    {
      name: "after a reset, a late delivery of a dropped event no longer finds its type and object",
      actions: [event("evt_1", [], "payout.created"), reset(ACME), delivery("evt_1")],
      inFlight: [],
      printed: ["event evt_1 payout.created:", "reset co_acme", "event evt_1 payment_intent.created: we_hooks=delivered"],
    },
    {
      name: "a request line alone never changes a delivery: only the bus's stop does",
      actions: [event("evt_1"), request("DELETE", "/v1/webhook_endpoints/we_hooks")],
      inFlight: ["evt_1: we_hooks=sending"],
      printed: ["request DELETE /v1/webhook_endpoints/we_hooks"],
    },
  ];

  it.each(cases)("$name", ({ actions, inFlight, printed }) => {
    const model = applyActions(createLiveModel(), actions);
    expect(summary(model)).toEqual({ inFlight, printed });
  });

  it("does not change the model it is given", () => {
    const before = reduce(createLiveModel(), event("evt_1"));
    const after = reduce(before, delivery("evt_1"));
    expect([...before.inFlight.keys()]).toEqual(["evt_1"]);
    expect(before.unprinted).toHaveLength(0);
    expect(after.inFlight.size).toBe(0);
  });

  it("keeps a failing delivery's retry number, last status and next attempt time", () => {
    const model = applyActions(createLiveModel(), [event("evt_1"), failing("evt_1", 2, null)]);
    expect(model.inFlight.get("evt_1")!.deliveries[0]!.state).toEqual({
      kind: "failing",
      attempts: 2,
      nextAttemptMs: T0 + 30_000,
      last: { statusCode: null, error: "connection refused", durationMs: 5 },
    });
  });

  it("prints each finished line once: taking the printed lines empties them", () => {
    const model = applyActions(createLiveModel(), [request("GET", "/v1/events")]);
    const first = takePrinted(model);
    expect(first.printed).toHaveLength(1);
    expect(takePrinted(first.model).printed).toHaveLength(0);
  });

  it("stays bounded in a burst: the oldest unprinted lines are counted instead of kept", () => {
    const burst = Array.from({ length: LIMITS.unprinted + 250 }, (_, i) => (i % 2 === 0 ? event(`evt_${i}`, []) : request("GET", `/v1/events/${i}`)));
    const model = applyActions(createLiveModel(), burst);
    expect(model.unprinted).toHaveLength(LIMITS.unprinted);
    const { printed } = takePrinted(model);
    expect(printed[0]).toEqual({ kind: "skipped", events: 125, requests: 125 });
    expect(printed.at(-1)).toMatchObject({ kind: "request", request: { path: `/v1/events/${LIMITS.unprinted + 249}` } });
  });

  it("tracks at most the newest in-flight events, dropping the oldest", () => {
    const burst = Array.from({ length: LIMITS.inFlight + 20 }, (_, i) => event(`evt_${i}`));
    const model = applyActions(createLiveModel(), burst);
    expect(model.inFlight.size).toBe(LIMITS.inFlight);
    expect(model.inFlight.has("evt_0")).toBe(false);
    expect(model.inFlight.has(`evt_${LIMITS.inFlight + 19}`)).toBe(true);
    expect(model.dropped).toBe(20);
  });

  it("remembers a printed event's type and object for a delivery that reports later", () => {
    const model = applyActions(createLiveModel(), [event("evt_1", [], "payout.created"), delivery("evt_1", { eventType: "payout.created" })]);
    const { printed } = takePrinted(model);
    expect(printed[1]).toMatchObject({ kind: "event", event: { id: "evt_1", objectId: "pi_evt_1", createdAt: "2026-05-01T12:00:00.000Z" } });
  });

  const fitCases = [
    { maxLines: 100, shown: ["evt_0", "evt_1", "evt_2"], hidden: 0 },
    { maxLines: 4, shown: ["evt_1", "evt_2"], hidden: 1 },
    { maxLines: 2, shown: ["evt_2"], hidden: 2 },
    { maxLines: 1, shown: [], hidden: 3 },
  ];
  it.each(fitCases)("shows the newest in-flight events that fit in $maxLines lines", ({ maxLines, shown, hidden }) => {
    const model = applyActions(createLiveModel(), [event("evt_0"), event("evt_1"), event("evt_2")]);
    const visible = visibleInFlight(model, maxLines);
    expect(visible.events.map((e) => e.id)).toEqual(shown);
    expect(visible.hidden).toBe(hidden);
  });
});

describe("cause before effect", () => {
  /** An event made by request `requestId`, with no endpoint (finished at once) unless given some. */
  const madeBy = (requestId: string, id: string, endpoints: readonly Endpoint[] = []): LiveAction => {
    const action = event(id, endpoints) as Extract<LiveAction, { kind: "event" }>;
    return { kind: "event", event: { ...action.event, requestId } };
  };
  const answered = (requestId: string, path: string): LiveAction => ({
    kind: "request",
    request: { requestId, method: "POST", path, status: 201, durationMs: 1, at: new Date(T0).toISOString() },
  });
  const started = (requestId: string): LiveAction => ({ kind: "started", requestId });
  const lines = (model: LiveModel) =>
    takePrinted(model).printed.map((p) => (p.kind === "request" ? `request ${p.request.requestId}` : p.kind === "event" ? `event ${p.event.id}` : p.kind));

  it("prints a request's line before the events it made, though the bus announced the events first", () => {
    const model = applyActions(createLiveModel(), [
      started("req_a"),
      madeBy("req_a", "evt_1"),
      madeBy("req_a", "evt_2"),
      answered("req_a", "/v1/payment_intents"),
    ]);
    expect(lines(model)).toEqual(["request req_a", "event evt_1", "event evt_2"]);
  });

  it("holds an event only while its request runs: a delivery finished before the answer waits for it, one of another request does not", () => {
    const model = applyActions(createLiveModel(), [
      started("req_a"),
      started("req_b"),
      madeBy("req_a", "evt_1", [hooks]),
      delivery("evt_1"),
      madeBy("req_b", "evt_2"),
      answered("req_b", "/v1/payouts"),
      madeBy("req_job", "evt_3"),
    ]);
    expect(lines(model)).toEqual(["request req_b", "event evt_2", "event evt_3"]);
    expect(lines(reduce(model, answered("req_a", "/v1/payment_intents")))).toEqual([
      "request req_b",
      "event evt_2",
      "event evt_3",
      "request req_a",
      "event evt_1",
    ]);
  });

  it("keeps at most LIMITS.open requests waiting: past that the oldest one's events are printed", () => {
    const actions: LiveAction[] = [started("req_0"), madeBy("req_0", "evt_0")];
    for (let i = 1; i <= LIMITS.open; i++) actions.push(started(`req_${i}`));
    const model = applyActions(createLiveModel(), actions);
    expect(model.open.size).toBe(LIMITS.open);
    expect(lines(model)).toEqual(["event evt_0"]);
  });
});

describe("what the model keeps", () => {
  it("stays bounded over 100,000 requests, each with the event it made, taken a frame at a time or not at all", () => {
    let model = createLiveModel();
    let printedLines = 0;
    for (let frame = 0; frame < 200; frame++) {
      const actions: LiveAction[] = [];
      for (let i = 0; i < 500; i++) {
        const n = frame * 500 + i;
        const requestId = `req_${n}`;
        const made = event(`evt_${n}`, n % 2 === 0 ? [] : [hooks]) as Extract<LiveAction, { kind: "event" }>;
        const answered = request("POST", "/v1/payment_intents") as Extract<LiveAction, { kind: "request" }>;
        actions.push(
          { kind: "started", requestId },
          { kind: "event", event: { ...made.event, requestId } },
          { kind: "request", request: { ...answered.request, requestId } },
        );
        if (n % 2 === 1) actions.push(delivery(`evt_${n}`));
      }
      model = applyActions(model, actions);
      expect(model.unprinted.length).toBeLessThanOrEqual(LIMITS.unprinted);
      expect(model.inFlight.size).toBeLessThanOrEqual(LIMITS.inFlight);
      expect(model.recent.size).toBeLessThanOrEqual(LIMITS.recent);
      expect(model.open.size).toBeLessThanOrEqual(LIMITS.open);
      // Every other frame the view is too busy to take what is finished.
      if (frame % 2 === 0) {
        const taken = takePrinted(model);
        printedLines += taken.printed.length;
        model = taken.model;
      }
    }
    expect(model.open.size).toBe(0);
    expect(model.inFlight.size).toBe(0);
    expect(printedLines).toBeGreaterThan(0);
  });
});

describe("dates", () => {
  const at = (iso: string, path: string): LiveAction => ({
    kind: "request",
    request: { requestId: `req_${path}`, method: "GET", path, status: 200, durationMs: 1, at: iso },
  });
  const dated = (iso: string, id: string): LiveAction => {
    const action = event(id, []) as Extract<LiveAction, { kind: "event" }>;
    return { kind: "event", event: { ...action.event, createdAt: iso } };
  };

  it("puts a day line above the first line of a later day, and the date on a line of an earlier day", () => {
    let model = applyActions(createLiveModel(), [at("2026-05-01T19:24:00.000Z", "/a")]);
    const first = takePrinted(model);
    expect(first.printed).toEqual([expect.objectContaining({ kind: "request" })]);
    expect(first.printed[0]).not.toHaveProperty("dated");
    model = applyActions(first.model, [
      at("2026-05-02T01:24:00.000Z", "/b"),
      dated("2026-05-01T19:30:00.000Z", "evt_late"),
      at("2026-05-02T01:25:00.000Z", "/c"),
    ]);
    const { printed } = takePrinted(model);
    expect(
      printed.map((p) =>
        p.kind === "day"
          ? `day ${p.day}`
          : p.kind === "request"
            ? `${p.request.path}${p.dated ? " dated" : ""}`
            : p.kind === "event"
              ? `${p.event.id}${p.dated ? " dated" : ""}`
              : p.kind,
      ),
    ).toEqual(["day 2026-05-02", "/b", "evt_late dated", "/c"]);
  });
});

describe("actions from bus payloads", () => {
  it("masks a card number in a request path and keeps no event body", () => {
    const action = requestAction(
      { requestId: "req_1", method: "GET", path: "/v1/payment_intents/4242424242424242", status: 404, durationMs: 1, arrivedAtMs: 0 },
      "2026-05-01T12:00:00.000Z",
    );
    expect(action).toMatchObject({ request: { path: "/v1/payment_intents/************4242" } });
    const fromEvent = eventAction({
      id: "evt_1",
      companyId: ACME,
      type: "payout.created",
      objectId: "po_1",
      requestId: "req_1",
      createdAt: "2026-05-01T12:00:00.000Z",
      deliveries: [{ deliveryId: "del_1", endpointId: "we_1", url: "http://127.0.0.1:9/hook/4242424242424242" }],
    });
    expect(fromEvent).toMatchObject({ event: { deliveries: [{ url: "http://127.0.0.1:9/hook/************4242" }] } });
  });

  it("takes the delivery's state, attempt count and next attempt from the bus's delivery.attempted", () => {
    const update: DeliveryAttempted = {
      deliveryId: "del_1",
      eventId: "evt_1",
      eventType: "payment_intent.created",
      eventRequestId: "req_1",
      endpointId: "we_1",
      companyId: "co_1",
      url: "http://127.0.0.1:9/x",
      status: "pending",
      attempts: 1,
      nextAttemptMs: T0 + 30_000,
      attempt: { statusCode: null, error: "connection refused", durationMs: 3 },
    };
    expect(deliveryAction(update)).toEqual({
      kind: "delivery",
      delivery: {
        deliveryId: "del_1",
        eventId: "evt_1",
        eventType: "payment_intent.created",
        endpointId: "we_1",
        url: "http://127.0.0.1:9/x",
        status: "pending",
        attempts: 1,
        nextAttemptMs: T0 + 30_000,
        last: { statusCode: null, error: "connection refused", durationMs: 3, chaos: null },
      },
    });
  });
});

import { describe, expect, it } from "vitest";
import { Bus } from "../../src/bus.js";
import { createIds } from "../../src/domain/ids.js";
import { createClock } from "../../src/runtime/clock.js";
import { createScheduler, type Job } from "../../src/runtime/scheduler.js";
import { bootstrap } from "../../src/services/bootstrap.js";
import { createUnitOfWork } from "../../src/services/unit-of-work.js";
import { createStore, type Store } from "../../src/store/index.js";
import type { StoredEvent } from "../../src/resources/events/store.js";
import { createDispatcher } from "../../src/webhooks/dispatcher.js";
import { createFirstAttempts } from "../../src/webhooks/first-attempts.js";
import { DELIVERY_JOB, type DeliveryJobPayload } from "../../src/webhooks/delivery-job.js";
import { createOutbox } from "../../src/webhooks/outbox.js";
import { defer, useDatabase, useTempPath } from "../helpers/disposables.js";

const T0 = Date.parse("2030-01-01T00:00:00.000Z");

/**
 * The outbox, scheduler and dispatcher on a real SQLite file, wired as paysim
 * wires them, with one endpoint that nothing here ever reaches: these tests
 * stop before an attempt would go out.
 */
function webhooksOnAFile() {
  const db = useDatabase(useTempPath());
  const store = createStore(db);
  const clock = createClock({ realNow: () => T0 });
  const bus = new Bus();
  const ids = createIds();
  const boot = bootstrap(store, clock, ids, { forwardTo: ["http://127.0.0.1:9/hooks"] });
  const endpoint = boot.forwardEndpoints[0]!;
  const errors: unknown[] = [];
  /** A scheduler and dispatcher on this database, as one start of paysim makes them. */
  const instance = () => {
    const scheduler = createScheduler({ store, clock, run: createUnitOfWork(store, bus, clock, ids), ids, onError: (_job, error) => errors.push(error) });
    const dispatcher = createDispatcher({ store, clock, scheduler, bus });
    defer(async () => {
      await scheduler.stop();
      dispatcher.close();
    });
    return { scheduler, dispatcher };
  };
  const { scheduler } = instance();
  const outbox = createOutbox({ store, clock, scheduler, bus, ids });
  let n = 0;
  const newEvent = (): StoredEvent =>
    store.events.insert({
      id: `evt_first_attempt_test_${String(++n).padStart(3, "0")}`,
      company_id: endpoint.company_id,
      type: "payment_intent.created",
      object_id: null,
      request_id: "req_test",
      created_at: clock.nowIso(),
      body: JSON.stringify({ id: `evt_${n}`, object: "event", type: "payment_intent.created" }),
    });
  return { store, clock, scheduler, outbox, endpoint, errors, newEvent, instance };
}

/** Everything stored about an event's deliveries: each with its attempts and its jobs. */
function deliveriesOf(store: Store, eventId: string) {
  return store.deliveries.forEvent(eventId).map((delivery) => ({
    delivery,
    attempts: store.deliveryAttempts.forDeliveries([delivery.id]),
    jobs: store.jobs.forSubject(delivery.id, DELIVERY_JOB),
  }));
}

describe("a delivery's first attempt", () => {
  it("is recorded in its event's own transaction, its job kept in memory only: a rolled-back change leaves no row", () => {
    const { store, outbox, endpoint, newEvent } = webhooksOnAFile();
    const rolledBack = store.transaction(newEvent);
    expect(() =>
      store.transaction(() => {
        outbox.enqueue(rolledBack);
        throw new Error("the change is refused after its event was recorded");
      }),
    ).toThrow("refused");
    expect(deliveriesOf(store, rolledBack.id)).toEqual([]);

    const event = store.transaction(newEvent);
    store.transaction(() => outbox.enqueue(event));
    const [stored, ...others] = deliveriesOf(store, event.id);
    expect(others).toEqual([]);
    expect(stored!.delivery).toMatchObject({ endpoint_id: endpoint.id, status: "pending", attempt_count: 0 });
    // Recorded before it goes out: started, no outcome yet.
    expect(stored!.attempts).toEqual([expect.objectContaining({ status_code: null, error: null, duration_ms: null, finished: 0 })]);
    // The open record is what a restart finds; the job itself has no row.
    expect(stored!.jobs).toEqual([]);
  });

  it("that never went out is found by the next start through its open record: marked interrupted, and given a job due now", () => {
    const { store, outbox, endpoint, newEvent, instance } = webhooksOnAFile();
    const event = store.transaction(newEvent);
    store.transaction(() => outbox.enqueue(event)); // the scheduler never starts: paysim stops before it goes out
    const { dispatcher } = instance(); // the next start
    expect(dispatcher.recover()).toBe(1);
    const [stored] = deliveriesOf(store, event.id);
    expect(stored!.attempts).toEqual([expect.objectContaining({ finished: 1, error: expect.stringContaining("interrupted") })]);
    expect(stored!.jobs).toEqual([expect.objectContaining({ due_ms: T0 })]);
    expect(JSON.parse(stored!.jobs[0]!.payload)).toEqual({ endpoint_id: endpoint.id } satisfies DeliveryJobPayload);
    // A start after that has nothing more to recover, and adds no second job.
    expect(instance().dispatcher.recover()).toBe(0);
    expect(deliveriesOf(store, event.id)[0]!.jobs).toHaveLength(1);
  });

  it("is saved as a job row after all once 20,000 jobs are held in memory, so that memory stays bounded", () => {
    const { store, outbox, newEvent } = webhooksOnAFile();
    // The scheduler is not started: every first attempt stays queued.
    const events = store.transaction(() => Array.from({ length: 20_001 }, () => newEvent()));
    store.transaction(() => events.forEach((event) => outbox.enqueue(event)));
    const jobs = store.db.prepare("SELECT subject_id FROM jobs").pluck().all();
    expect(jobs).toEqual([store.deliveries.forEvent(events.at(-1)!.id)[0]!.id]);
  });

  it("queued in a change that rolls back still starts once the group commits, finds nothing, and writes nothing", async () => {
    const { store, scheduler, outbox, errors, newEvent } = webhooksOnAFile();
    scheduler.start();
    let recorded: StoredEvent | undefined;
    expect(() =>
      store.unit(() => {
        recorded = newEvent();
        outbox.enqueue(recorded);
        throw new Error("the change is refused after its event was recorded");
      }),
    ).toThrow("refused");
    const { committed } = store.unit(() => undefined); // the rest of the group commits
    await committed;
    await scheduler.idle();
    expect(errors).toEqual([]);
    expect(store.events.byId(recorded!.company_id, recorded!.id)).toBeUndefined();
    expect(deliveriesOf(store, recorded!.id)).toEqual([]);
    expect(store.db.prepare("SELECT COUNT(*) FROM delivery_attempts").pluck().get()).toBe(0);
  });

  it("is no attempt when its endpoint is deleted before its job started: its record goes with the job", () => {
    const { store, outbox, endpoint, newEvent } = webhooksOnAFile();
    // The scheduler is not started: the job never runs.
    const event = store.transaction(newEvent);
    store.transaction(() => outbox.enqueue(event));
    store.transaction(() => outbox.stopForEndpoint(endpoint.company_id, endpoint.id));
    expect(deliveriesOf(store, event.id)).toEqual([{ delivery: expect.objectContaining({ status: "failed", attempt_count: 0 }), attempts: [], jobs: [] }]);
  });

  it("is no attempt when its endpoint is deleted while its job waits for the event's commit: the job drops the record", async () => {
    const { store, scheduler, outbox, endpoint, errors, newEvent } = webhooksOnAFile();
    scheduler.start();
    // One group commit: the event and its delivery, then (same turn) the endpoint's deletion.
    const { result: event } = store.unit(() => {
      const recorded = newEvent();
      outbox.enqueue(recorded);
      return recorded;
    });
    scheduler.drain(); // takes the job now, before the group has committed
    expect(scheduler.inFlightCount()).toBe(1);
    const { committed } = store.unit(() => outbox.stopForEndpoint(endpoint.company_id, endpoint.id));
    await committed;
    await scheduler.idle();
    expect(errors).toEqual([]);
    expect(deliveriesOf(store, event.id)).toEqual([{ delivery: expect.objectContaining({ status: "failed", attempt_count: 0 }), attempts: [], jobs: [] }]);
  });
});

describe("first attempts, on their own", () => {
  /** A delivery of a new event, made by the outbox (whose first attempt goes through `queue`), and the module itself. */
  function oneDelivery() {
    const webhooks = webhooksOnAFile();
    const { store, clock, scheduler, outbox, newEvent } = webhooks;
    const event = store.transaction(newEvent);
    store.transaction(() => outbox.enqueue(event));
    const [stored] = deliveriesOf(store, event.id);
    const firstAttempts = createFirstAttempts({ store, clock, scheduler });
    const jobOf = (payload: DeliveryJobPayload): Job => ({ kind: DELIVERY_JOB, subjectId: stored!.delivery.id, dueMs: T0, payload });
    return { ...webhooks, stored: stored!, firstAttempts, jobOf };
  }

  it("queue records the attempt ahead, open, and holds its job in memory with no row", () => {
    const { scheduler, stored } = oneDelivery();
    expect(stored.attempts).toEqual([expect.objectContaining({ finished: 0 })]);
    expect(stored.jobs).toEqual([]);
    expect(scheduler.trackedKeys()).toBe(1); // queued for its endpoint, waiting for the scheduler to start
  });

  it("recordedAhead answers the attempt to send only for a first attempt's job whose record is still open", () => {
    const { store, endpoint, stored, firstAttempts, jobOf } = oneDelivery();
    const ahead = stored.attempts[0]!.seq;
    const cases: [string, DeliveryJobPayload, number | undefined][] = [
      ["its own open record", { endpoint_id: endpoint.id, attempt_seq: ahead }, ahead],
      ["a retry's job (no record ahead)", { endpoint_id: endpoint.id }, undefined],
      ["a record that is not open", { endpoint_id: endpoint.id, attempt_seq: ahead + 1000 }, undefined],
    ];
    for (const [name, payload, expected] of cases) expect([name, firstAttempts.recordedAhead(jobOf(payload))]).toEqual([name, expected]);
    store.transaction(() =>
      store.deliveryAttempts.finish({ seq: ahead, attempted_at: new Date(T0).toISOString(), status_code: 500, error: null, duration_ms: 1 }),
    );
    expect(firstAttempts.recordedAhead(jobOf({ endpoint_id: endpoint.id, attempt_seq: ahead }))).toBeUndefined();
  });

  it("discardUnstarted drops the open records of first attempts that never went out, and nothing for a retry's job", () => {
    const { store, endpoint, stored, firstAttempts, jobOf } = oneDelivery();
    const ahead = stored.attempts[0]!.seq;
    store.transaction(() => firstAttempts.discardUnstarted(stored.delivery.id, [jobOf({ endpoint_id: endpoint.id })]));
    expect(store.deliveryAttempts.forDeliveries([stored.delivery.id])).toHaveLength(1);
    store.transaction(() => firstAttempts.discardUnstarted(stored.delivery.id, [jobOf({ endpoint_id: endpoint.id, attempt_seq: ahead })]));
    expect(store.deliveryAttempts.forDeliveries([stored.delivery.id])).toEqual([]);
  });
});

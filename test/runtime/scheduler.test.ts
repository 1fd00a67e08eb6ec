import { describe, expect, it } from "vitest";
import { Bus } from "../../src/bus.js";
import { createIds } from "../../src/domain/ids.js";
import { createClock, type Clock } from "../../src/runtime/clock.js";
import { createScheduler, type Scheduler } from "../../src/runtime/scheduler.js";
import { createUnitOfWork, type Work } from "../../src/services/unit-of-work.js";
import { createStore, type Store } from "../../src/store/index.js";
import { openDatabase } from "../../src/store/open.js";
import { defer, useTempPath } from "../helpers/disposables.js";

const T0 = Date.parse("2030-01-01T00:00:00.000Z");
/** The ids of these tests' units of work and jobs. */
const ids = createIds();

interface Harness {
  store: Store;
  clock: Clock;
  scheduler: Scheduler<Work>;
  ran: string[];
  errors: unknown[];
  close(): Promise<void>;
}

/** A scheduler on a real SQLite file, its clock fed by a real-time source the test moves. */
function harness(dbPath: string, realNow: () => number): Harness {
  const db = openDatabase(dbPath);
  const store = createStore(db);
  const clock = createClock({ realNow });
  const run = createUnitOfWork(store, new Bus(), clock, ids);
  const ran: string[] = [];
  const errors: unknown[] = [];
  const scheduler = createScheduler({ store, clock, run, ids, onError: (_job, error) => errors.push(error) });
  scheduler.register("record", { sync: (job) => void ran.push(String(job.payload)) });
  const h: Harness = {
    store,
    clock,
    scheduler,
    ran,
    errors,
    async close() {
      await scheduler.stop();
      if (db.open) db.close();
    },
  };
  defer(() => h.close());
  return h;
}

const newDbPath = () => useTempPath();

function schedule(h: Harness, payload: string, dueMs: number, kind = "record") {
  h.store.transaction(() => h.scheduler.schedule({ kind, subjectId: `subject-${payload}`, dueMs, payload }));
}

describe("scheduler", () => {
  it("runs every due job in due order on drain, and leaves jobs not yet due", () => {
    const h = harness(newDbPath(), () => T0);
    h.scheduler.start();
    schedule(h, "c", T0 + 3000);
    schedule(h, "a", T0 + 1000);
    schedule(h, "later", T0 + 60_000);
    schedule(h, "b", T0 + 2000);
    h.clock.advance(5);
    h.scheduler.drain();
    expect(h.ran).toEqual(["a", "b", "c"]);
    expect(h.store.jobs.nextDueAfter(h.clock.now())).toBe(T0 + 60_000);
  });

  it("runs a job made due by another job in the same drain", () => {
    const h = harness(newDbPath(), () => T0);
    h.scheduler.register("chain", {
      sync: (job) => {
        h.ran.push("first");
        h.scheduler.schedule({ kind: "record", subjectId: job.subjectId, dueMs: job.dueMs + 1000, payload: "second" });
      },
    });
    h.scheduler.start();
    schedule(h, "x", T0 + 1000, "chain");
    h.clock.advance(10);
    h.scheduler.drain();
    expect(h.ran).toEqual(["first", "second"]);
  });

  it("keeps jobs across a restart: overdue ones run at start, the others wait for their time", async () => {
    const path = newDbPath();
    let real = T0;
    const first = harness(path, () => real);
    first.scheduler.start();
    schedule(first, "overdue", T0 + 2000);
    schedule(first, "not-yet", T0 + 10_000);
    await first.close();

    real = T0 + 5000; // paysim was down for five seconds
    const second = harness(path, () => real);
    second.scheduler.start();
    expect(second.ran).toEqual(["overdue"]);
    second.clock.advance(5);
    second.scheduler.drain();
    expect(second.ran).toEqual(["overdue", "not-yet"]);
  });

  it("removes a job only with its handler's writes, so a job is never lost", () => {
    const h = harness(newDbPath(), () => T0);
    h.scheduler.register("explodes", {
      sync: () => {
        throw new Error("handler bug");
      },
    });
    h.scheduler.start();
    schedule(h, "boom", T0, "explodes");
    h.scheduler.drain();
    expect(h.errors).toHaveLength(1);
    // Postponed rather than retried in a loop, and still there.
    expect(h.store.jobs.nextDueAfter(T0)).toBeGreaterThan(T0);
  });

  it("keeps an async job's row until its writes commit; a stop mid-flight leaves it for the next start", async () => {
    const path = newDbPath();
    const first = harness(path, () => T0);
    let release!: () => void;
    const started = new Promise<void>((resolveStarted) => {
      first.scheduler.register("attempt", {
        async: (_job, signal) =>
          new Promise((_resolve, reject) => {
            resolveStarted();
            release = () => reject(new Error("never answered"));
            signal.addEventListener("abort", () => reject(new Error("aborted")));
          }),
      });
    });
    first.scheduler.start();
    schedule(first, "deliver", T0, "attempt");
    await started;
    expect(first.scheduler.inFlightCount()).toBe(1);
    await first.close(); // aborts the attempt; its row must survive
    expect(release).toBeTypeOf("function");

    const second = harness(path, () => T0);
    const committed: string[] = [];
    second.scheduler.register("attempt", {
      async: async (job) => () => void committed.push(job.subjectId),
    });
    second.scheduler.start();
    await second.scheduler.idle();
    expect(committed).toEqual(["subject-deliver"]);
    expect(second.store.jobs.nextDueAfter(0)).toBeUndefined();
  });

  it("bounds the async jobs in flight and starts the rest as slots free", async () => {
    const h = harness(newDbPath(), () => T0);
    const db = h.store;
    const scheduler = createScheduler({
      store: db,
      clock: h.clock,
      run: createUnitOfWork(db, new Bus(), h.clock, ids),
      ids,
      maxInFlight: 2,
      onError: () => {},
    });
    defer(() => scheduler.stop());
    let peak = 0;
    const done: string[] = [];
    scheduler.register("attempt", {
      async: async (job) => {
        peak = Math.max(peak, scheduler.inFlightCount() + 1);
        await new Promise((resolve) => setImmediate(resolve));
        return () => void done.push(job.subjectId);
      },
    });
    scheduler.start();
    db.transaction(() => {
      for (let i = 0; i < 6; i++) scheduler.schedule({ kind: "attempt", subjectId: `s${i}`, dueMs: T0 });
    });
    await new Promise((resolve) => setImmediate(resolve));
    await scheduler.idle();
    expect(done.sort()).toEqual(["s0", "s1", "s2", "s3", "s4", "s5"]);
    expect(peak).toBeLessThanOrEqual(2);
  });

  it("past the bound, starts one job for each key with none running, but never more than twice the bound in all; then forgets the keys", async () => {
    const h = harness(newDbPath(), () => T0);
    const db = h.store;
    const scheduler = createScheduler({
      store: db,
      clock: h.clock,
      run: createUnitOfWork(db, new Bus(), h.clock, ids),
      ids,
      maxInFlight: 2,
      onError: () => {},
    });
    defer(() => scheduler.stop());
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const started: string[] = [];
    scheduler.register("attempt", {
      async: async (job) => {
        started.push(job.subjectId);
        await gate;
      },
      limit: { key: (job) => (job.payload as { key: string }).key, max: 10 },
    });
    scheduler.start();
    // Key "busy" has three jobs; six other keys one each.
    const jobs = [
      ...["b1", "b2", "b3"].map((subjectId) => ({ subjectId, key: "busy" })),
      ...["k1", "k2", "k3", "k4", "k5", "k6"].map((subjectId) => ({ subjectId, key: subjectId })),
    ];
    db.transaction(() => {
      for (const { subjectId, key } of jobs) scheduler.schedule({ kind: "attempt", subjectId, dueMs: T0, payload: { key } });
    });
    scheduler.drain();
    // Two within the bound, then two more for keys with none running; the rest wait.
    expect(scheduler.inFlightCount()).toBe(4);
    expect(scheduler.trackedKeys()).toBe(7);
    release();
    await scheduler.idle();
    expect(started.sort()).toEqual(jobs.map((job) => job.subjectId).sort());
    // Nothing is kept for a key once its jobs are done.
    expect(scheduler.trackedKeys()).toBe(0);
  });

  it("starts an async job only once the group commit that scheduled it is durable", async () => {
    const h = harness(newDbPath(), () => T0);
    const seen: string[] = [];
    h.scheduler.register("attempt", {
      async: async (job) => {
        seen.push(`${job.subjectId} started`);
        return () => {};
      },
    });
    h.scheduler.start();
    const { committed } = h.store.unit(() => h.scheduler.schedule({ kind: "attempt", subjectId: "s1", dueMs: T0 }));
    void committed.then(() => seen.push("committed"));
    h.scheduler.drain(); // reads the job on the same connection before the group commits
    expect(h.scheduler.inFlightCount()).toBe(1);
    expect(seen).toEqual([]);
    await h.scheduler.idle();
    expect(seen).toEqual(["committed", "s1 started"]);
  });

  it("frees a key's slot once the job's handler resolves: the next job starts while the first one's writes commit", async () => {
    const h = harness(newDbPath(), () => T0);
    const log: string[] = [];
    let waiting = 0;
    let peak = 0;
    h.scheduler.register("attempt", {
      async: async (job) => {
        peak = Math.max(peak, ++waiting);
        log.push(`${job.subjectId} started`);
        await new Promise((resolve) => setImmediate(resolve));
        waiting--;
        return (work) => work.afterCommit(() => log.push(`${job.subjectId} committed`));
      },
      limit: { key: () => "one endpoint", max: 1 },
    });
    h.scheduler.start();
    h.store.transaction(() => {
      for (const subjectId of ["s1", "s2"]) h.scheduler.schedule({ kind: "attempt", subjectId, dueMs: T0 });
    });
    await new Promise((resolve) => setImmediate(resolve));
    await h.scheduler.idle();
    expect(peak).toBe(1);
    expect(log).toEqual(["s1 started", "s2 started", "s1 committed", "s2 committed"]);
    expect(h.store.jobs.nextDueAfter(0)).toBeUndefined();
  });

  it("fires on its own timer in scaled real time", async () => {
    const h = harness(newDbPath(), Date.now);
    const fast = createClock({ timeScale: 10_000 });
    const scheduler = createScheduler({ store: h.store, clock: fast, run: createUnitOfWork(h.store, new Bus(), fast, ids), ids, onError: () => {} });
    defer(() => scheduler.stop());
    const fired = new Promise<string>((resolve) => scheduler.register("tick", { sync: (job) => resolve(String(job.payload)) }));
    scheduler.start();
    // One virtual minute: a tenth of a real second at this scale.
    h.store.transaction(() => scheduler.schedule({ kind: "tick", subjectId: "t", dueMs: fast.now() + 60_000, payload: "fired" }));
    expect(await fired).toBe("fired");
  });

  it("fires a job that fell due while a drain was running instead of skipping it", async () => {
    // Each read of real time moves it on by 400 ms: the clock runs on during the drain itself.
    let real = T0;
    const h = harness(newDbPath(), () => (real += 400));
    const ran = new Promise<string>((resolve) => h.scheduler.register("late", { sync: () => resolve("late job ran") }));
    h.store.transaction(() => {
      h.scheduler.schedule({ kind: "record", subjectId: "a", dueMs: real + 1000, payload: "first" });
      h.scheduler.schedule({ kind: "late", subjectId: "b", dueMs: real + 2500 });
    });
    h.clock.advance(1);
    h.scheduler.start();
    expect(await ran).toBe("late job ran");
    expect(h.ran).toEqual(["first"]);
  });

  it("cancels a subject's jobs that the keep test rejects", () => {
    const h = harness(newDbPath(), () => T0);
    h.scheduler.start();
    h.store.transaction(() => {
      h.scheduler.schedule({ kind: "record", subjectId: "po_1", dueMs: T0 + 1000, payload: "drop" });
      h.scheduler.schedule({ kind: "record", subjectId: "po_1", dueMs: T0 + 2000, payload: "keep" });
      h.scheduler.cancel("po_1", "record", (job) => job.payload === "keep");
    });
    h.clock.advance(5);
    h.scheduler.drain();
    expect(h.ran).toEqual(["keep"]);
  });

  it("runs a job with no row (runNow) once the group commit that queued it is durable, and writes no row for it", async () => {
    const h = harness(newDbPath(), () => T0);
    const seen: string[] = [];
    h.scheduler.register("attempt", {
      async: async (job) => {
        seen.push(`${job.subjectId} started`);
        return () => void seen.push(`${job.subjectId} committed`);
      },
    });
    h.scheduler.start();
    const { committed } = h.store.unit(() => h.scheduler.runNow({ kind: "attempt", subjectId: "s1" }));
    void committed.then(() => seen.push("group durable"));
    expect(h.store.jobs.forSubject("s1", "attempt")).toEqual([]);
    await committed;
    await h.scheduler.idle();
    expect(seen).toEqual(["group durable", "s1 started", "s1 committed"]);
    expect(h.store.jobs.nextDueAfter(0)).toBeUndefined();
    expect(h.errors).toEqual([]);
  });

  it("cancels a job with no row that has not started, answering it", () => {
    const h = harness(newDbPath(), () => T0);
    const started: string[] = [];
    h.scheduler.register("attempt", { async: async (job) => void started.push(job.subjectId) });
    // Not started: the job stays queued.
    h.store.transaction(() => {
      h.scheduler.runNow({ kind: "attempt", subjectId: "s1", payload: "first" });
      h.scheduler.runNow({ kind: "attempt", subjectId: "s2", payload: "other subject" });
    });
    const cancelled = h.store.transaction(() => h.scheduler.cancel("s1", "attempt"));
    expect(cancelled).toEqual([expect.objectContaining({ kind: "attempt", subjectId: "s1", payload: "first" })]);
    expect(h.scheduler.trackedKeys()).toBe(1); // s2's job is still queued
  });

  it("forgets the queued jobs of subjects a reset deleted, rowless ones included, and starts only the others", async () => {
    const h = harness(newDbPath(), () => T0);
    const started: string[] = [];
    h.scheduler.register("attempt", { async: async (job) => void started.push(job.subjectId) });
    h.store.transaction(() => {
      h.scheduler.runNow({ kind: "attempt", subjectId: "gone" });
      h.scheduler.runNow({ kind: "attempt", subjectId: "kept" });
    });
    h.scheduler.forgetSubjects(new Set(["gone"]));
    h.scheduler.start();
    await h.scheduler.idle();
    expect(started).toEqual(["kept"]);
    expect(h.errors).toEqual([]);
  });
});

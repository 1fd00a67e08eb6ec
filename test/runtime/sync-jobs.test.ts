import { describe, expect, it } from "vitest";
import { Bus } from "../../src/bus.js";
import { createIds } from "../../src/domain/ids.js";
import { createClock } from "../../src/runtime/clock.js";
import type { Job } from "../../src/runtime/job.js";
import { createSyncJobs } from "../../src/runtime/sync-jobs.js";
import { createUnitOfWork } from "../../src/services/unit-of-work.js";
import { createStore } from "../../src/store/index.js";
import { useDatabase, useTempPath } from "../helpers/disposables.js";

/** Sync jobs on a real SQLite file and the services' unit of work, as the scheduler runs them. */
function syncJobsOnAFile() {
  const store = createStore(useDatabase(useTempPath()));
  const clock = createClock({ realNow: () => 0 });
  const postponed: [string, string][] = [];
  let stopped = false;
  const ids = createIds();
  const jobs = createSyncJobs({
    store,
    run: createUnitOfWork(store, new Bus(), clock, ids),
    ids,
    postpone: (job: Job, error: unknown) => postponed.push([job.subjectId, (error as Error).message]),
    stopped: () => stopped,
  });
  const add = (kind: string, subject: string, dueMs: number) =>
    store.transaction(() => store.jobs.insert({ kind, subject_id: subject, due_ms: dueMs, payload: JSON.stringify(subject) }));
  const rowsLeft = () => store.db.prepare("SELECT subject_id FROM jobs ORDER BY seq").pluck().all();
  return { store, jobs, add, rowsLeft, postponed, stop: () => (stopped = true) };
}

describe("sync jobs", () => {
  it("run every job due, in due order, each removing its row; later ones and other kinds stay", () => {
    const { jobs, add, rowsLeft } = syncJobsOnAFile();
    const ran: string[] = [];
    jobs.register("move", (job) => void ran.push(String(job.payload)));
    add("move", "second", 200);
    add("move", "first", 100);
    add("other", "not-mine", 100);
    add("move", "later", 900);
    expect(jobs.runDue(500)).toBe(true);
    expect(ran).toEqual(["first", "second"]);
    expect(rowsLeft()).toEqual(["not-mine", "later"]);
    expect(jobs.runDue(500)).toBe(false);
  });

  it("roll back a job's writes when its handler throws, and hand the job to postpone", () => {
    const { store, jobs, add, rowsLeft, postponed } = syncJobsOnAFile();
    jobs.register("move", (job) => {
      store.meta.set("written-by", job.subjectId);
      throw new Error("handler bug");
    });
    add("move", "boom", 100);
    expect(jobs.runDue(100)).toBe(true);
    expect(postponed).toEqual([["boom", "handler bug"]]);
    expect(store.meta.get("written-by")).toBeUndefined();
    expect(rowsLeft()).toEqual(["boom"]); // postpone decides what becomes of it
  });

  it("stop between jobs once stopped", () => {
    const { jobs, add, rowsLeft, stop } = syncJobsOnAFile();
    jobs.register("move", () => stop());
    add("move", "a", 100);
    add("move", "b", 100);
    expect(jobs.runDue(100)).toBe(true);
    expect(rowsLeft()).toEqual(["b"]);
  });

  it("with no kind registered, run nothing", () => {
    const { jobs, add, rowsLeft } = syncJobsOnAFile();
    add("move", "a", 100);
    expect(jobs.runDue(100)).toBe(false);
    expect(rowsLeft()).toEqual(["a"]);
  });
});

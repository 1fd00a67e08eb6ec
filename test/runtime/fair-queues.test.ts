import { describe, expect, it } from "vitest";
import { createFairQueues, type Slot } from "../../src/runtime/fair-queues.js";
import type { TrackedJob } from "../../src/runtime/job.js";

let lastSeq = 0;
const job = (subjectId: string): TrackedJob => ({ seq: ++lastSeq, kind: "attempt", subjectId, dueMs: 0, payload: null });

/** Queues `jobs` as [subject, key, max?], dispatches once; answers the started subjects in order, with their slots. */
function queueAndDispatch(maxInFlight: number, jobs: [string, string, number?][]) {
  const queues = createFairQueues(maxInFlight);
  for (const [subject, key, max] of jobs) queues.push(job(subject), key, max);
  const slots = new Map<string, Slot>();
  const started: string[] = [];
  const dispatch = () =>
    queues.dispatch((startedJob, slot) => {
      started.push(startedJob.subjectId);
      slots.set(startedJob.subjectId, slot);
    });
  dispatch();
  return { queues, started, slots, dispatch };
}

describe("fair queues", () => {
  it.each([
    {
      name: "take keys in turn, each in FIFO order",
      maxInFlight: 10,
      jobs: [
        ["a1", "a"],
        ["a2", "a"],
        ["a3", "a"],
        ["b1", "b"],
        ["b2", "b"],
      ],
      started: ["a1", "b1", "a2", "b2", "a3"],
    },
    {
      name: "start no more than the bound from one key",
      maxInFlight: 2,
      jobs: [
        ["a1", "a"],
        ["a2", "a"],
        ["a3", "a"],
      ],
      started: ["a1", "a2"],
    },
    {
      name: "past the bound, start one for each key with none running, up to twice the bound in all",
      maxInFlight: 2,
      jobs: [
        ["b1", "busy"],
        ["b2", "busy"],
        ["b3", "busy"],
        ["k1", "k1"],
        ["k2", "k2"],
        ["k3", "k3"],
        ["k4", "k4"],
      ],
      started: ["b1", "k1", "k2", "k3"],
    },
    {
      name: "hold a key to its own limit while others go on",
      maxInFlight: 10,
      jobs: [
        ["a1", "a", 1],
        ["a2", "a", 1],
        ["b1", "b"],
        ["b2", "b"],
      ],
      started: ["a1", "b1", "b2"],
    },
  ] satisfies { name: string; maxInFlight: number; jobs: [string, string, number?][]; started: string[] }[])("$name", ({ maxInFlight, jobs, started }) => {
    const run = queueAndDispatch(maxInFlight, jobs);
    expect(run.started).toEqual(started);
    expect(run.queues.running()).toBe(started.length);
    expect(run.queues.size()).toBe(jobs.length - started.length);
  });

  it("frees a key's limit once its job is done waiting, and the global bound once it is finished", () => {
    const run = queueAndDispatch(1, [
      ["a1", "a", 1],
      ["a2", "a", 1],
      ["b1", "b"],
    ]);
    // a1 within the bound; b1 past it, as its key has none running; a2 waits on its key's limit.
    expect(run.started).toEqual(["a1", "b1"]);
    run.slots.get("a1")!.doneWaiting();
    run.dispatch();
    // The limit no longer holds a2, but the bound does: a1 still runs (its writes commit).
    expect(run.started).toEqual(["a1", "b1"]);
    run.slots.get("b1")!.finished();
    run.slots.get("a1")!.finished();
    run.dispatch();
    expect(run.started).toEqual(["a1", "b1", "a2"]);
  });

  it("forgets a key once nothing of it is queued or running, however its slots were given back", () => {
    const run = queueAndDispatch(10, [
      ["a1", "a"],
      ["b1", "b"],
      ["c1", "c"],
    ]);
    expect(run.queues.trackedKeys()).toBe(3);
    run.slots.get("a1")!.doneWaiting();
    run.slots.get("a1")!.doneWaiting(); // idempotent: counted down once
    run.slots.get("a1")!.finished();
    run.slots.get("b1")!.finished();
    expect(run.queues.trackedKeys()).toBe(1);
    run.slots.get("c1")!.doneWaiting();
    run.slots.get("c1")!.finished();
    expect(run.queues.trackedKeys()).toBe(0);
    expect(run.queues.running()).toBe(0);
  });

  it("removes queued jobs by test or by seq, keeping the others in order", () => {
    const queues = createFairQueues(10);
    const jobs = ["a1", "a2", "a3", "b1"].map(job);
    jobs.forEach((queued) => queues.push(queued, queued.subjectId[0]!, undefined));
    expect(queues.removeWhere((queued) => queued.subjectId === "a2").map((removed) => removed.subjectId)).toEqual(["a2"]);
    queues.remove(jobs[3]!.seq);
    expect(queues.holds(jobs[3]!.seq)).toBe(false);
    expect(queues.holds(jobs[0]!.seq)).toBe(true);
    expect(queues.size()).toBe(2);
    expect(queues.trackedKeys()).toBe(1); // key "b" has nothing left
    const started: string[] = [];
    queues.dispatch((queued) => started.push(queued.subjectId));
    expect(started).toEqual(["a1", "a3"]);
  });

  it("clears every queued job; running ones keep their slots", () => {
    const run = queueAndDispatch(1, [
      ["a1", "a"],
      ["a2", "a"],
    ]);
    run.queues.clear();
    expect(run.queues.size()).toBe(0);
    expect(run.queues.running()).toBe(1);
    run.slots.get("a1")!.finished();
    run.dispatch();
    expect(run.started).toEqual(["a1"]);
  });
});

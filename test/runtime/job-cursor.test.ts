import { describe, expect, it } from "vitest";
import { createJobCursor } from "../../src/runtime/job-cursor.js";
import { createStore, type Store } from "../../src/store/index.js";
import { useDatabase, useTempPath } from "../helpers/disposables.js";

function storeOnAFile(): Store {
  return createStore(useDatabase(useTempPath()));
}

function insert(store: Store, kind: string, subject: string, dueMs: number) {
  return store.transaction(() => store.jobs.insert({ kind, subject_id: subject, due_ms: dueMs, payload: "null" }));
}

const subjects = (rows: { subject_id: string }[]) => rows.map((row) => row.subject_id);

describe("the job cursor", () => {
  it("pages through the due jobs of the kinds asked, in due order, then seq", () => {
    const store = storeOnAFile();
    insert(store, "a", "late", 300);
    insert(store, "a", "first", 100);
    insert(store, "other", "not-this-kind", 100);
    insert(store, "b", "second", 200);
    insert(store, "a", "third", 200); // same due time as "second": after it, by seq
    insert(store, "a", "not-due", 1000);
    const cursor = createJobCursor(store.jobs);
    expect(subjects(cursor.next(["a", "b"], 500, 2))).toEqual(["first", "second"]);
    expect(subjects(cursor.next(["a", "b"], 500, 2))).toEqual(["third", "late"]);
    expect(cursor.next(["a", "b"], 500, 2)).toEqual([]);
  });

  it("never hands out a job twice, and finds one added past it in due order", () => {
    const store = storeOnAFile();
    insert(store, "a", "one", 100);
    const cursor = createJobCursor(store.jobs);
    expect(subjects(cursor.next(["a"], 100, 10))).toEqual(["one"]);
    expect(cursor.next(["a"], 100, 10)).toEqual([]);
    insert(store, "a", "same-time-later-seq", 100);
    insert(store, "a", "due-later", 150);
    expect(subjects(cursor.next(["a"], 100, 10))).toEqual(["same-time-later-seq"]);
    // A job falls due as the clock moves on; the cursor reads it then.
    expect(subjects(cursor.next(["a"], 150, 10))).toEqual(["due-later"]);
  });

  it("stays where it was when a page is empty, and each cursor keeps its own place", () => {
    const store = storeOnAFile();
    const first = createJobCursor(store.jobs);
    expect(first.next(["a"], 100, 10)).toEqual([]);
    insert(store, "a", "one", 50);
    expect(subjects(first.next(["a"], 100, 10))).toEqual(["one"]);
    const second = createJobCursor(store.jobs);
    expect(subjects(second.next(["a"], 100, 10))).toEqual(["one"]);
    expect(first.next(["a"], 100, 10)).toEqual([]);
  });
});

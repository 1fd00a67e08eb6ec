import { Database, type SqliteDatabase } from "../../src/store/sqlite-driver.js";
import { beforeEach, describe, expect, it } from "vitest";
import { createGroupCommit, type GroupCommit } from "../../src/store/group-commit.js";
import { defer } from "../helpers/disposables.js";

let db: SqliteDatabase;
let group: GroupCommit;
const rows = () => db.prepare("SELECT v FROM t ORDER BY v").pluck().all();
const insert = (v: string) => db.prepare("INSERT INTO t (v) VALUES (?)").run(v);

beforeEach(() => {
  db = new Database(":memory:");
  const opened = db;
  defer(() => opened.close());
  db.exec("CREATE TABLE t (v TEXT NOT NULL)");
  group = createGroupCommit(db);
});

describe("group commit", () => {
  it("puts the units of one event-loop turn in one transaction, committed after the turn", async () => {
    const a = group.unit(() => insert("a"));
    const b = group.unit(() => insert("b"));
    expect(a.committed).toBe(b.committed);
    expect(db.inTransaction).toBe(true);
    await Promise.all([a.committed, b.committed]);
    expect(db.inTransaction).toBe(false);
    expect(rows()).toEqual(["a", "b"]);
  });

  it("rolls back a unit that throws, alone, and throws its error at once", async () => {
    const kept = group.unit(() => insert("kept"));
    expect(() =>
      group.unit(() => {
        insert("refused");
        throw new Error("refused transition");
      }),
    ).toThrow("refused transition");
    const after = group.unit(() => insert("after"));
    await Promise.all([kept.committed, after.committed]);
    expect(rows()).toEqual(["after", "kept"]);
  });

  it("commits the open group before a transaction of its own, which is durable when it returns", () => {
    const pending = group.unit(() => insert("grouped"));
    group.transaction(() => insert("own"));
    expect(db.inTransaction).toBe(false);
    expect(rows()).toEqual(["grouped", "own"]);
    return expect(pending.committed).resolves.toBeUndefined();
  });

  it("nests a transaction inside a unit as part of that unit, without committing half of it", async () => {
    const unit = group.unit(() => {
      insert("outer");
      group.transaction(() => insert("inner"));
      expect(db.inTransaction).toBe(true);
      return "done";
    });
    expect(unit.result).toBe("done");
    await unit.committed;
    expect(rows()).toEqual(["inner", "outer"]);
  });

  it("starts a new group for units after a commit", async () => {
    const first = group.unit(() => insert("1"));
    await first.committed;
    const second = group.unit(() => insert("2"));
    expect(second.committed).not.toBe(first.committed);
    await second.committed;
    expect(rows()).toEqual(["1", "2"]);
  });
});

describe("whenOpenGroupDurable", () => {
  it("waits for the open group, and is undefined when none is open", async () => {
    expect(group.whenOpenGroupDurable()).toBeUndefined();
    const unit = group.unit(() => insert("x"));
    let settled = false;
    const waiting = group.whenOpenGroupDurable()!.then(() => (settled = true));
    expect(settled).toBe(false);
    await unit.committed;
    await waiting;
    expect(settled).toBe(true);
    expect(db.inTransaction).toBe(false);
    expect(group.whenOpenGroupDurable()).toBeUndefined();
  });
});

import { Database } from "../../src/store/sqlite-driver.js";
import { describe, expect, it } from "vitest";
import { objectRows } from "../../src/store/repos/object-rows.js";

describe("objectRows", () => {
  const db = new Database(":memory:");
  db.exec(`CREATE TABLE t (seq INTEGER PRIMARY KEY, name TEXT, amount INTEGER, note TEXT, "odd ""name""" TEXT)`);
  const insert = db.prepare(`INSERT INTO t (name, amount, note, "odd ""name""") VALUES (?, ?, ?, ?)`);
  insert.run("a", 100, null, "x");
  insert.run("b", -5, "n", "y");
  insert.run("c", 0, "", "z");
  const sql = "SELECT * FROM t WHERE seq >= ? ORDER BY seq DESC";

  it("gives every row exactly as better-sqlite3's own row objects, values, nulls and key order alike", () => {
    const rows = objectRows<Record<string, unknown>>(db.prepare(sql)).all(1);
    const reference = db.prepare(sql).all(1) as Record<string, unknown>[];
    expect(rows).toEqual(reference);
    expect(rows.map((row) => Object.keys(row))).toEqual(reference.map((row) => Object.keys(row)));
    expect(rows[2]).toEqual({ seq: 1, name: "a", amount: 100, note: null, 'odd "name"': "x" });
  });

  it("gives one row, or undefined when there is none", () => {
    const rows = objectRows<{ name: string }>(db.prepare(sql));
    expect(rows.get(3)?.name).toBe("c");
    expect(rows.get(4)).toBeUndefined();
    expect(rows.all(4)).toEqual([]);
  });

  it("takes named parameters", () => {
    const rows = objectRows<{ seq: number }>(db.prepare("SELECT seq FROM t WHERE amount > @min ORDER BY seq LIMIT CAST(@limit AS INTEGER)"));
    expect(rows.all({ min: -1, limit: 5 })).toEqual([{ seq: 1 }, { seq: 3 }]);
  });
});

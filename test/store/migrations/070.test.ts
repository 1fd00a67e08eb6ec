import { describe, expect, it } from "vitest";
import { columns, databaseAt, everyRow, indexes, queryPlan, seedVersion10, seedVersion20, tableNames, userVersion, versionBefore } from "./support.js";

const NOT_NULL = 1;
const NULLABLE = 0;

/** A database of the version before 70, holding rows of the first tables, moved to version 70. */
function migratedTo70() {
  const old = databaseAt(versionBefore(70));
  const ids = seedVersion10(old.db);
  seedVersion20(old.db, ids.company);
  const before = everyRow(old.db);
  old.migrateTo(70);
  return { db: old.db, ids, before };
}

describe("migration 70: fault rules", () => {
  it("moves the database to version 70 with a fault_rules table, every earlier row carried over unchanged", () => {
    const { db, before } = migratedTo70();
    expect(userVersion(db)).toBe(70);
    expect(tableNames(db)).toEqual([...Object.keys(before), "fault_rules"].sort());
    const after = everyRow(db);
    for (const [table, rows] of Object.entries(before)) expect(after[table], table).toEqual(rows);
  });

  it("gives fault_rules its columns, with the counters starting where a new rule starts", () => {
    const { db } = migratedTo70();
    expect(columns(db, "fault_rules")).toEqual([
      { name: "seq", type: "INTEGER", notnull: NULLABLE, dflt_value: null, pk: 1 },
      { name: "id", type: "TEXT", notnull: NOT_NULL, dflt_value: null, pk: 0 },
      { name: "company_id", type: "TEXT", notnull: NOT_NULL, dflt_value: null, pk: 0 },
      { name: "fault", type: "TEXT", notnull: NOT_NULL, dflt_value: null, pk: 0 },
      { name: "method", type: "TEXT", notnull: NULLABLE, dflt_value: null, pk: 0 },
      { name: "path", type: "TEXT", notnull: NULLABLE, dflt_value: null, pk: 0 },
      { name: "times", type: "INTEGER", notnull: NOT_NULL, dflt_value: null, pk: 0 },
      { name: "remaining", type: "INTEGER", notnull: NOT_NULL, dflt_value: null, pk: 0 },
      { name: "probability", type: "REAL", notnull: NOT_NULL, dflt_value: null, pk: 0 },
      { name: "latency_ms", type: "INTEGER", notnull: NULLABLE, dflt_value: null, pk: 0 },
      { name: "seed", type: "INTEGER", notnull: NOT_NULL, dflt_value: null, pk: 0 },
      { name: "matched", type: "INTEGER", notnull: NOT_NULL, dflt_value: "0", pk: 0 },
      { name: "created_at", type: "TEXT", notnull: NOT_NULL, dflt_value: null, pk: 0 },
    ]);
  });

  it("finds a company's rules oldest first through an index, and refuses a rule of no company", () => {
    const { db, ids } = migratedTo70();
    expect(indexes(db, "fault_rules").map((index) => index.name)).toContain("fault_rules_by_company");
    expect(queryPlan(db, "SELECT * FROM fault_rules WHERE company_id = ? ORDER BY seq", ids.company)).toContain("fault_rules_by_company");
    const insert = db.prepare(
      "INSERT INTO fault_rules (id, company_id, fault, times, remaining, probability, seed, created_at) VALUES (?, ?, 'server_error', 1, 1, 1, 0, '2026-05-01T12:00:00.000Z')",
    );
    insert.run("flt_0123456789abcdefghijklmn", ids.company);
    expect(() => insert.run("flt_1123456789abcdefghijklmn", "co_nobody")).toThrow(/FOREIGN KEY/);
  });
});

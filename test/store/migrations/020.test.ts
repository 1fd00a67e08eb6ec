import { describe, expect, it } from "vitest";
import { columns, databaseAt, everyRow, foreignKeys, indexes, queryPlan, seedVersion10, tableNames, userVersion, versionBefore } from "./support.js";

const NOT_NULL = 1;
const NULLABLE = 0;

/** A version-10 database holding rows of every table, moved to version 20. */
function migratedFrom10() {
  const old = databaseAt(versionBefore(20));
  expect(userVersion(old.db)).toBe(10);
  const ids = seedVersion10(old.db);
  const before = everyRow(old.db);
  old.migrateTo(20);
  return { db: old.db, ids, before };
}

describe("migration 20: payouts and the scheduler's jobs", () => {
  it("moves the database to version 20 with the payouts and jobs tables, and nothing else changed", () => {
    const { db, before } = migratedFrom10();
    expect(userVersion(db)).toBe(20);
    expect(tableNames(db)).toEqual([...Object.keys(before), "jobs", "payouts"].sort());
  });

  it("carries every row of version 10 over unchanged", () => {
    const { db, before } = migratedFrom10();
    const after = everyRow(db);
    for (const [table, rows] of Object.entries(before)) expect(after[table], table).toEqual(rows);
    expect(Object.values(before).every((rows) => rows.length > 0)).toBe(true);
  });

  it("gives payouts the columns paysim reads and writes", () => {
    const { db } = migratedFrom10();
    expect(columns(db, "payouts")).toEqual([
      { name: "seq", type: "INTEGER", notnull: NULLABLE, dflt_value: null, pk: 1 },
      { name: "id", type: "TEXT", notnull: NOT_NULL, dflt_value: null, pk: 0 },
      { name: "company_id", type: "TEXT", notnull: NOT_NULL, dflt_value: null, pk: 0 },
      { name: "reference", type: "TEXT", notnull: NOT_NULL, dflt_value: null, pk: 0 },
      { name: "amount", type: "INTEGER", notnull: NOT_NULL, dflt_value: null, pk: 0 },
      { name: "currency", type: "TEXT", notnull: NOT_NULL, dflt_value: null, pk: 0 },
      { name: "status", type: "TEXT", notnull: NOT_NULL, dflt_value: null, pk: 0 },
      { name: "destination_type", type: "TEXT", notnull: NOT_NULL, dflt_value: null, pk: 0 },
      { name: "destination_token", type: "TEXT", notnull: NOT_NULL, dflt_value: null, pk: 0 },
      { name: "destination_masked", type: "TEXT", notnull: NOT_NULL, dflt_value: null, pk: 0 },
      { name: "description", type: "TEXT", notnull: NULLABLE, dflt_value: null, pk: 0 },
      { name: "failure_reason", type: "TEXT", notnull: NULLABLE, dflt_value: null, pk: 0 },
      { name: "amount_reversed", type: "INTEGER", notnull: NOT_NULL, dflt_value: "0", pk: 0 },
      { name: "created_at", type: "TEXT", notnull: NOT_NULL, dflt_value: null, pk: 0 },
      { name: "updated_at", type: "TEXT", notnull: NOT_NULL, dflt_value: null, pk: 0 },
    ]);
    expect(foreignKeys(db, "payouts")).toEqual([{ from: "company_id", table: "companies", to: "id" }]);
    expect(indexes(db, "payouts")).toEqual([
      { name: "payouts_by_company", unique: false, partial: false, columns: ["company_id", "seq"] },
      { name: "payouts_by_status", unique: false, partial: false, columns: ["company_id", "status", "seq"] },
      { name: "sqlite_autoindex_payouts_1", unique: true, partial: false, columns: ["id"] },
      { name: "sqlite_autoindex_payouts_2", unique: true, partial: false, columns: ["company_id", "reference"] },
    ]);
  });

  it("gives jobs the columns and indexes the scheduler reads them by", () => {
    const { db } = migratedFrom10();
    expect(columns(db, "jobs")).toEqual([
      { name: "seq", type: "INTEGER", notnull: NULLABLE, dflt_value: null, pk: 1 },
      { name: "kind", type: "TEXT", notnull: NOT_NULL, dflt_value: null, pk: 0 },
      { name: "subject_id", type: "TEXT", notnull: NOT_NULL, dflt_value: null, pk: 0 },
      { name: "due_ms", type: "INTEGER", notnull: NOT_NULL, dflt_value: null, pk: 0 },
      { name: "payload", type: "TEXT", notnull: NOT_NULL, dflt_value: null, pk: 0 },
    ]);
    expect(indexes(db, "jobs")).toEqual([
      { name: "jobs_by_due", unique: false, partial: false, columns: ["due_ms", "seq"] },
      { name: "jobs_by_kind_due", unique: false, partial: false, columns: ["kind", "due_ms", "seq"] },
      { name: "jobs_by_subject", unique: false, partial: false, columns: ["subject_id"] },
    ]);
    expect(queryPlan(db, "SELECT * FROM jobs WHERE due_ms <= ? ORDER BY due_ms, seq", 0)).toContain("jobs_by_due");
  });

  it("never hands out a job's seq twice, even after the newest job is gone (AUTOINCREMENT)", () => {
    const { db } = migratedFrom10();
    const insert = db.prepare("INSERT INTO jobs (kind, subject_id, due_ms, payload) VALUES ('payout.move', 'po_1', 1, '{}')");
    const first = Number(insert.run().lastInsertRowid);
    db.prepare("DELETE FROM jobs WHERE seq = ?").run(first);
    expect(Number(insert.run().lastInsertRowid)).toBe(first + 1);
  });

  it("takes a payout of an existing company, once per reference, and refuses one of an unknown company", () => {
    const { db, ids } = migratedFrom10();
    const insert = db.prepare(
      `INSERT INTO payouts (id, company_id, reference, amount, currency, status, destination_type, destination_token, destination_masked, created_at, updated_at)
       VALUES (?, ?, ?, 5000, 'EUR', 'pending', 'card', 'tok_card_visa', '**** 4242', 'x', 'x')`,
    );
    insert.run("po_1", ids.company, "PO-1");
    expect(db.prepare("SELECT amount_reversed FROM payouts WHERE id = 'po_1'").pluck().get()).toBe(0);
    expect(() => insert.run("po_2", ids.company, "PO-1")).toThrow(/UNIQUE/);
    expect(() => insert.run("po_3", "co_unknown", "PO-3")).toThrow(/FOREIGN KEY/);
    expect(db.prepare("SELECT id FROM payouts").pluck().all()).toEqual(["po_1"]);
  });
});

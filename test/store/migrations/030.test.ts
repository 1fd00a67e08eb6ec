import { describe, expect, it } from "vitest";
import {
  columns,
  databaseAt,
  everyRow,
  foreignKeys,
  indexes,
  queryPlan,
  seedVersion10,
  seedVersion20,
  tableNames,
  userVersion,
  versionBefore,
} from "./support.js";

const NOT_NULL = 1;
const NULLABLE = 0;

/** A version-20 database holding rows of every table (a payout and its pending job among them), moved to version 30. */
function migratedFrom20() {
  const old = databaseAt(versionBefore(30));
  expect(userVersion(old.db)).toBe(20);
  const ids = seedVersion10(old.db);
  seedVersion20(old.db, ids.company);
  const before = everyRow(old.db);
  old.migrateTo(30);
  return { db: old.db, ids, before };
}

describe("migration 30: the webhook outbox (deliveries and their attempts)", () => {
  it("moves the database to version 30 with the deliveries and delivery_attempts tables", () => {
    const { db, before } = migratedFrom20();
    expect(userVersion(db)).toBe(30);
    expect(tableNames(db)).toEqual([...Object.keys(before), "deliveries", "delivery_attempts"].sort());
  });

  it("carries every row of version 20 over unchanged, the payout's pending job included", () => {
    const { db, before } = migratedFrom20();
    const after = everyRow(db);
    for (const [table, rows] of Object.entries(before)) expect(after[table], table).toEqual(rows);
    expect(Object.values(before).every((rows) => rows.length > 0)).toBe(true);
    expect(db.prepare("SELECT kind, subject_id FROM jobs").all()).toEqual([{ kind: "payout.move", subject_id: "po_0123456789abcdefghijklmn" }]);
  });

  it("gives deliveries the columns, links and indexes the dispatcher and the API use", () => {
    const { db } = migratedFrom20();
    expect(columns(db, "deliveries")).toEqual([
      { name: "seq", type: "INTEGER", notnull: NULLABLE, dflt_value: null, pk: 1 },
      { name: "id", type: "TEXT", notnull: NOT_NULL, dflt_value: null, pk: 0 },
      { name: "event_id", type: "TEXT", notnull: NOT_NULL, dflt_value: null, pk: 0 },
      { name: "company_id", type: "TEXT", notnull: NOT_NULL, dflt_value: null, pk: 0 },
      { name: "endpoint_id", type: "TEXT", notnull: NOT_NULL, dflt_value: null, pk: 0 },
      { name: "url", type: "TEXT", notnull: NOT_NULL, dflt_value: null, pk: 0 },
      { name: "status", type: "TEXT", notnull: NOT_NULL, dflt_value: null, pk: 0 },
      { name: "attempt_count", type: "INTEGER", notnull: NOT_NULL, dflt_value: "0", pk: 0 },
      { name: "next_attempt_ms", type: "INTEGER", notnull: NULLABLE, dflt_value: null, pk: 0 },
      { name: "created_at", type: "TEXT", notnull: NOT_NULL, dflt_value: null, pk: 0 },
      { name: "updated_at", type: "TEXT", notnull: NOT_NULL, dflt_value: null, pk: 0 },
    ]);
    expect(foreignKeys(db, "deliveries")).toEqual([
      { from: "company_id", table: "companies", to: "id" },
      { from: "endpoint_id", table: "webhook_endpoints", to: "id" },
      { from: "event_id", table: "events", to: "id" },
    ]);
    expect(indexes(db, "deliveries")).toEqual([
      { name: "deliveries_by_endpoint", unique: false, partial: false, columns: ["endpoint_id", "status"] },
      { name: "deliveries_by_event", unique: false, partial: false, columns: ["event_id", "seq"] },
      { name: "sqlite_autoindex_deliveries_1", unique: true, partial: false, columns: ["id"] },
    ]);
  });

  it("gives delivery_attempts its columns, its link to the delivery, and a partial index of the unfinished ones", () => {
    const { db } = migratedFrom20();
    expect(columns(db, "delivery_attempts")).toEqual([
      { name: "seq", type: "INTEGER", notnull: NULLABLE, dflt_value: null, pk: 1 },
      { name: "delivery_id", type: "TEXT", notnull: NOT_NULL, dflt_value: null, pk: 0 },
      { name: "attempted_at", type: "TEXT", notnull: NOT_NULL, dflt_value: null, pk: 0 },
      { name: "status_code", type: "INTEGER", notnull: NULLABLE, dflt_value: null, pk: 0 },
      { name: "error", type: "TEXT", notnull: NULLABLE, dflt_value: null, pk: 0 },
      { name: "duration_ms", type: "INTEGER", notnull: NULLABLE, dflt_value: null, pk: 0 },
      { name: "finished", type: "INTEGER", notnull: NOT_NULL, dflt_value: "0", pk: 0 },
    ]);
    expect(foreignKeys(db, "delivery_attempts")).toEqual([{ from: "delivery_id", table: "deliveries", to: "id" }]);
    expect(indexes(db, "delivery_attempts")).toEqual([
      { name: "delivery_attempts_by_delivery", unique: false, partial: false, columns: ["delivery_id", "seq"] },
      { name: "delivery_attempts_unfinished", unique: false, partial: true, columns: ["finished"] },
    ]);
    expect(queryPlan(db, "SELECT seq FROM delivery_attempts WHERE finished = 0")).toContain("delivery_attempts_unfinished");
  });

  it("takes a delivery of an event that existed before, and its attempt, unfinished until completed", () => {
    const { db, ids } = migratedFrom20();
    db.prepare(
      "INSERT INTO deliveries (id, event_id, company_id, endpoint_id, url, status, created_at, updated_at) VALUES ('del_1', ?, ?, ?, 'http://127.0.0.1:3000/hooks', 'pending', 'x', 'x')",
    ).run(ids.event, ids.company, ids.endpoint);
    expect(db.prepare("SELECT attempt_count, next_attempt_ms FROM deliveries WHERE id = 'del_1'").get()).toEqual({ attempt_count: 0, next_attempt_ms: null });
    db.prepare("INSERT INTO delivery_attempts (delivery_id, attempted_at) VALUES ('del_1', 'x')").run();
    expect(db.prepare("SELECT delivery_id FROM delivery_attempts WHERE finished = 0").pluck().all()).toEqual(["del_1"]);
    db.prepare("UPDATE delivery_attempts SET status_code = 200, duration_ms = 12, finished = 1").run();
    expect(db.prepare("SELECT count(*) FROM delivery_attempts WHERE finished = 0").pluck().get()).toBe(0);
  });

  it("refuses a delivery of an unknown event or endpoint, and an attempt of an unknown delivery", () => {
    const { db, ids } = migratedFrom20();
    const delivery = db.prepare(
      "INSERT INTO deliveries (id, event_id, company_id, endpoint_id, url, status, created_at, updated_at) VALUES (?, ?, ?, ?, 'u', 'pending', 'x', 'x')",
    );
    expect(() => delivery.run("del_a", "evt_unknown", ids.company, ids.endpoint)).toThrow(/FOREIGN KEY/);
    expect(() => delivery.run("del_b", ids.event, ids.company, "we_unknown")).toThrow(/FOREIGN KEY/);
    expect(() => db.prepare("INSERT INTO delivery_attempts (delivery_id, attempted_at) VALUES ('del_unknown', 'x')").run()).toThrow(/FOREIGN KEY/);
    expect(db.prepare("SELECT count(*) FROM deliveries").pluck().get()).toBe(0);
  });
});

import { describe, expect, it } from "vitest";
import type { Db } from "../../src/store/db.js";
import { PAYOUTS } from "../../src/resources/payouts/store.js";
import { loadResourceModules } from "../../src/resources/load.js";
import { withResourceMigrations } from "../../src/store/resource-store.js";
import { MIGRATIONS, TABLES } from "../../src/store/schema.js";
import { col, defineTable, type TableDefinition } from "../../src/store/table.js";
import { useDatabase } from "../helpers/disposables.js";

/** What SQLite says of `table` in `db`: its columns in order, keys, references, unique sets, rowid and autoincrement. */
function schemaOf(db: Db, table: string) {
  const columns = db.prepare('SELECT name, type, "notnull", dflt_value, pk FROM pragma_table_info(?) ORDER BY cid').all(table);
  const references = db.prepare('SELECT "from", "table", "to" FROM pragma_foreign_key_list(?) ORDER BY "from"').all(table);
  const unique = (db.prepare("SELECT name FROM pragma_index_list(?) WHERE origin IN ('u', 'pk') ORDER BY name").pluck().all(table) as string[])
    .map((index) => (db.prepare("SELECT name FROM pragma_index_info(?) ORDER BY seqno").pluck().all(index) as string[]).join(", "))
    .sort();
  const [listed] = db.prepare("SELECT wr FROM pragma_table_list WHERE schema = 'main' AND name = ?").pluck().all(table) as number[];
  const sql = db.prepare("SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = ?").pluck().get(table) as string | undefined;
  return { columns, references, unique, withoutRowid: listed === 1, autoincrement: /AUTOINCREMENT/i.test(sql ?? "") };
}

/** The schema of the table a definition's own CREATE TABLE makes. */
function schemaOfDefinition(table: TableDefinition) {
  const db = useDatabase(":memory:", []);
  db.exec(table.createSql());
  return schemaOf(db, table.name);
}

// Paysim's own tables, then those of the resource folders' stores, made by all of their steps.
const modules = await loadResourceModules();
const ALL_TABLES = [...TABLES, ...modules.flatMap((module) => module.store?.tables ?? [])];
const ALL_STEPS = withResourceMigrations(MIGRATIONS, modules);

function migrated(): Db {
  return useDatabase(":memory:", ALL_STEPS);
}

describe("the table definitions", () => {
  it("define every table the migrations make, and no other", () => {
    const db = migrated();
    const tables = db
      .prepare("SELECT name FROM pragma_table_list WHERE schema = 'main' AND type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
      .pluck()
      .all() as string[];
    expect(ALL_TABLES.map((table) => table.name).sort()).toEqual(tables);
  });

  it("come each after the tables their rows refer to (a snapshot's rows are checked in this order)", () => {
    const db = migrated();
    const order = ALL_TABLES.map((table) => table.name);
    for (const [i, table] of order.entries()) {
      const referenced = db.prepare('SELECT DISTINCT "table" FROM pragma_foreign_key_list(?)').pluck().all(table) as string[];
      for (const other of referenced) expect(order.indexOf(other), `${table} refers to ${other}`).toBeLessThan(i);
    }
  });
});

describe("each table definition", () => {
  it.each(ALL_TABLES.map((table) => [table.name, table] as const))("%s: its CREATE TABLE makes the table the migrations make", (_name, table) => {
    expect(schemaOfDefinition(table)).toEqual(schemaOf(migrated(), table.name));
  });

  it("is told apart from the migrated table when a column differs in type, NOT NULL, default or order", () => {
    const { seq, id, ...rest } = PAYOUTS.columns;
    const variants = [
      defineTable("payouts", { ...PAYOUTS.columns, amount: col.real(PAYOUTS.columns.amount.rule) }, PAYOUTS),
      defineTable("payouts", { ...PAYOUTS.columns, reference: col.nullableText(PAYOUTS.columns.reference.rule) }, PAYOUTS),
      defineTable("payouts", { ...PAYOUTS.columns, amount_reversed: col.integer(PAYOUTS.columns.amount_reversed.rule) }, PAYOUTS),
      defineTable("payouts", { id, seq, ...rest }, PAYOUTS),
      defineTable("payouts", { ...PAYOUTS.columns, company_id: col.text(PAYOUTS.columns.company_id.rule) }, PAYOUTS),
      defineTable("payouts", PAYOUTS.columns, { ...PAYOUTS, constraints: [] }),
    ];
    const db = migrated();
    for (const variant of variants) expect(schemaOfDefinition(variant)).not.toEqual(schemaOf(db, "payouts"));
  });
});

/**
 * A table written once: each column's SQL type, whether it may be NULL, what follows the type in
 * CREATE TABLE, the schema the API holds its value to (a resource shape's `field.column` reads it
 * from here), and what an imported snapshot's value may hold. From that one list come the row
 * type (`RowOf`), the columns a row insert names (repos/row-inserter.ts), the table's snapshot
 * rules (store/snapshot-checks.ts) and, for a table a new migration makes, its CREATE TABLE text.
 *
 * A released migration never changes, so the tables made before this module keep their own
 * CREATE TABLE text: test/store/table-definitions.test.ts fails when a definition and the
 * migrated schema disagree (names, order, types, NOT NULL, defaults, keys) or a migrated table
 * has none.
 */
import type * as z from "zod";
import type { ColumnCheck } from "./snapshot-rows.js";
import type { SnapshotSources } from "./snapshot-sources.js";

/** A snapshot check made once, with what the store cannot import itself (the wiring hands it in). */
export interface HandedInCheck {
  readonly handedIn: (sources: SnapshotSources) => ColumnCheck;
}

/** What an imported snapshot's value of a column may hold: a check of the store's own, or one made from the sources handed in. */
export type SnapshotCheck = ColumnCheck | HandedInCheck;

/** A check that needs what only layers above the store know (a contract's schema, the clock's range, the shipped test data). */
export const handedIn = (make: (sources: SnapshotSources) => ColumnCheck): HandedInCheck => ({ handedIn: make });

/**
 * What a column's value may be: either the schema the API holds it to (an imported value must
 * pass it, then `also`, which sees the whole row and the rows read before), or only a snapshot
 * check, for a column no API answer shows as it is stored.
 */
export type ColumnRule<Value> =
  { readonly schema: () => z.ZodType<Value>; readonly also?: SnapshotCheck } | { readonly schema?: undefined; readonly check: SnapshotCheck };

export type SqlType = "TEXT" | "INTEGER" | "REAL";

/** One column of a table definition; `Value` is what a row holds in it. */
export interface Column<Value> {
  readonly type: SqlType;
  readonly notNull: boolean;
  /** What follows the type and NOT NULL in CREATE TABLE: PRIMARY KEY, UNIQUE, REFERENCES, DEFAULT. */
  readonly constraints: string;
  readonly rule: ColumnRule<Value>;
  /** Never set: it carries the value's type for `RowOf`. */
  readonly valueType?: Value;
}

function column<Value>(type: SqlType, notNull: boolean, rule: ColumnRule<Value>, constraints = ""): Column<Value> {
  return { type, notNull, constraints, rule };
}

/**
 * The column kinds a table is made of. `constraints` is SQL written after the type (`UNIQUE`,
 * `DEFAULT 0`). A text or integer column's row type may be narrowed (`col.text<DeliveryStatus>`);
 * it is never inferred from the schema, so a row's type says what paysim stores, not what it shows.
 */
export const col = {
  text: <V extends string = string>(rule: ColumnRule<NoInfer<V>>, constraints?: string) => column<V>("TEXT", true, rule, constraints),
  nullableText: <V extends string | null = string | null>(rule: ColumnRule<NoInfer<V>>, constraints?: string) => column<V>("TEXT", false, rule, constraints),
  integer: <V extends number = number>(rule: ColumnRule<NoInfer<V>>, constraints?: string) => column<V>("INTEGER", true, rule, constraints),
  nullableInteger: <V extends number | null = number | null>(rule: ColumnRule<NoInfer<V>>, constraints?: string) =>
    column<V>("INTEGER", false, rule, constraints),
  real: (rule: ColumnRule<number>, constraints?: string) => column<number>("REAL", true, rule, constraints),
  /** A text primary key: SQLite lets such a column hold NULL in a rowid table, paysim never writes one. */
  textKey: (rule: ColumnRule<string>) => column<string>("TEXT", false, rule, "PRIMARY KEY"),
  /** The row's own sequence number, SQLite's rowid (`autoincrement`: never reused). */
  seq: (check: SnapshotCheck, autoincrement = false) =>
    column<number>("INTEGER", false, { check }, autoincrement ? "PRIMARY KEY AUTOINCREMENT" : "PRIMARY KEY"),
};

export type AnyColumns = Readonly<Record<string, Column<unknown>>>;

/** A row of a table with these columns, as SQLite gives it back. */
export type RowOf<Columns extends AnyColumns> = { -readonly [K in keyof Columns]: Columns[K] extends Column<infer Value> ? Value : never };

export interface TableOptions {
  /** The column whose value names a row in a snapshot refusal, and by which later tables refer to it. */
  readonly key: string;
  /** Columns holding a secret or its hash: a refusal names them but never quotes their value. */
  readonly secret?: readonly string[];
  /** Table constraints written after the columns (`UNIQUE (company_id, reference)`). */
  readonly constraints?: readonly string[];
  readonly withoutRowid?: boolean;
}

export interface TableDefinition<Name extends string = string, Columns extends AnyColumns = AnyColumns> extends TableOptions {
  readonly name: Name;
  readonly columns: Columns;
  /** The column names in CREATE TABLE order. */
  readonly columnNames: readonly string[];
  /**
   * The CREATE TABLE statement of this table, for the migration that makes a new table. A released
   * step never changes, so a migration calls it only until it is released: from then on it holds
   * the text this gave, and a later column is a step of its own (ALTER TABLE), which the named
   * test then holds the definition to.
   */
  createSql(): string;
}

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;

/** One table, its columns in the order CREATE TABLE lists them. */
export function defineTable<const Name extends string, const Columns extends AnyColumns>(
  name: Name,
  columns: Columns,
  options: TableOptions,
): TableDefinition<Name, Columns> {
  const columnNames = Object.keys(columns);
  for (const id of [name, ...columnNames]) if (!IDENTIFIER.test(id)) throw new Error(`not a plain SQL identifier: ${id}`);
  if (!columnNames.includes(options.key)) throw new Error(`table ${name} has no column ${options.key} to name its rows by`);
  return {
    name,
    columns,
    columnNames,
    ...options,
    createSql() {
      const width = Math.max(...columnNames.map((column) => column.length));
      const lines = columnNames.map((column) => {
        const { type, notNull, constraints } = columns[column]!;
        return [`  ${column.padEnd(width)} ${type}`, notNull ? "NOT NULL" : "", constraints].filter(Boolean).join(" ");
      });
      lines.push(...(options.constraints ?? []).map((constraint) => `  ${constraint}`));
      return `CREATE TABLE ${name} (\n${lines.join(",\n")}\n)${options.withoutRowid ? " WITHOUT ROWID" : ""};`;
    },
  };
}

import { UnusableDatabaseError } from "./errors.js";
import type { Db } from "./db.js";

/** One row of a snapshot's table, column by column, as SQLite holds it. */
export type SnapshotRow = Readonly<Record<string, unknown>>;

/** Whether a row of an earlier table (in the rules' order) has `key` as its naming column's value. */
export type KnownRow = (table: string, key: unknown) => boolean;

/**
 * What one column of a snapshot's table may hold: undefined when paysim itself could have written
 * `value` in `row`, else what is wrong with it, in words that follow the column's name ("is not
 * JSON", "must be one of …").
 */
export type ColumnCheck = (value: unknown, row: SnapshotRow, known: KnownRow) => string | undefined;

/** The checks of one table: every column of the current schema has one. */
export interface TableRules {
  /** The table's name. */
  readonly table: string;
  /** The column that names a row in a refusal (its id), and by whose values later tables refer to it. */
  readonly key: string;
  readonly columns: Readonly<Record<string, ColumnCheck>>;
  /** Columns holding a secret or its hash: a refusal names them but never quotes their value. */
  readonly secret?: readonly string[];
}

/**
 * Every table's checks, in an order where a table comes after each table its rows refer to: a
 * reference is checked against the rows already read, so the snapshot is read once, row by row.
 */
export type SnapshotRules = readonly TableRules[];

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * Refuses, naming the file, the table, the row's id and the column, the first value of the
 * snapshot in `db` that paysim could not have written (`rules` say what it could). Runs on the
 * in-memory copy, already at the current schema, before anything is written anywhere. A table or
 * column without a rule is paysim's own mistake, and throws a plain Error: the rules must cover
 * every column the schema has.
 */
export function checkSnapshotRows(db: Db, path: string, rules: SnapshotRules): void {
  const tables = db
    .prepare("SELECT name FROM pragma_table_list WHERE schema = 'main' AND type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
    .pluck()
    .all() as string[];
  const ruled = new Set(rules.map((rule) => rule.table));
  const unruled = tables.filter((table) => !ruled.has(table));
  if (unruled.length > 0) throw new Error(`no import rules for the table(s) ${unruled.join(", ")}`);
  const keys = new Map<string, Set<unknown>>();
  const known: KnownRow = (table, key) => keys.get(table)?.has(key) === true;
  for (const rule of rules) {
    const columns = db.prepare("SELECT name FROM pragma_table_info(?) ORDER BY cid").pluck().all(rule.table) as string[];
    const checks = columns.map((column) => {
      const check = rule.columns[column];
      if (check === undefined) throw new Error(`no import rule for the column ${rule.table}.${column}`);
      return [column, check] as const;
    });
    const extra = Object.keys(rule.columns).filter((column) => !columns.includes(column));
    if (extra.length > 0 || !columns.includes(rule.key))
      throw new Error(`import rules for ${rule.table} name columns it lacks: ${[...extra, rule.key].join(", ")}`);
    const seen = new Set<unknown>();
    keys.set(rule.table, seen);
    for (const row of db.prepare(`SELECT * FROM ${quoted(rule.table)}`).iterate() as Iterable<SnapshotRow>) {
      for (const [column, check] of checks) {
        const problem = check(row[column], row, known);
        if (problem !== undefined) throw refused(path, rule, row, column, problem);
      }
      seen.add(row[rule.key]);
    }
  }
}

/** At most this many characters of a value are quoted in a refusal. */
const SHOWN_MAX = 60;

/** A stored value as a refusal quotes it: JSON-escaped (one line, no control character), cut short. */
export function shownValue(value: unknown): string {
  const text = typeof value === "string" ? JSON.stringify(value) : value === null ? "NULL" : String(value);
  return text.length > SHOWN_MAX ? `${text.slice(0, SHOWN_MAX)}…` : text;
}

function refused(path: string, rule: TableRules, row: SnapshotRow, column: string, problem: string): UnusableDatabaseError {
  const id = row[rule.key];
  const name = rule.key === "id" ? shownValue(id) : `${rule.key} ${shownValue(id)}`;
  const what = problem.replace(/\s+/g, " ").replace(/\.$/, "");
  const held = rule.secret?.includes(column) ? "" : ` (it holds ${shownValue(row[column])})`;
  return new UnusableDatabaseError(
    path,
    `The snapshot ${path} cannot be imported: table ${rule.table}, row ${name}, column ${column}: ${what}${held}. ` +
      `paysim could not have written that value; nothing of the snapshot was imported.`,
  );
}

import type { Statement } from "better-sqlite3";

/** A SELECT's rows as objects, read the fast way (see `objectRows`). */
export interface ObjectRows<Row> {
  get(...params: unknown[]): Row | undefined;
  all(...params: unknown[]): Row[];
}

/**
 * better-sqlite3 builds each row object one property at a time, which costs a
 * wide row more than the query. Reading rows as arrays and turning each into an
 * object with one literal compiled for the statement's columns costs less than
 * half of that (docs/performance.md), and every read answer pays it.
 * Column names come from our own schema, never from input.
 */
export function objectRows<Row>(statement: Statement): ObjectRows<Row> {
  const raw = statement.raw(true);
  const fields = raw.columns().map((column, i) => `${JSON.stringify(column.name)}: r[${i}]`);
  const toRow = new Function("r", `return { ${fields.join(", ")} };`) as (r: unknown[]) => Row;
  return {
    get(...params) {
      const row = raw.get(...params) as unknown[] | undefined;
      return row === undefined ? undefined : toRow(row);
    },
    all: (...params) => (raw.all(...params) as unknown[][]).map(toRow),
  };
}

import type { Db } from "../db.js";

/** Every column of a row but its `seq`, each named once: the compiler refuses a list that misses one. */
export type InsertColumns<Row extends { seq: number }> = { readonly [Column in Exclude<keyof Row, "seq"> & string]: true };

/**
 * An INSERT of a whole row into `table`, the one way repos insert a resource: parameters by
 * position and no RETURNING, since both cost a creation more than the insert itself, and the row
 * is known already. It answers the row as stored, with the `seq` SQLite gave it.
 */
export function rowInserter<Row extends { seq: number }>(db: Db, table: string, columns: InsertColumns<Row>): (row: Omit<Row, "seq">) => Row {
  const names = Object.keys(columns) as (Exclude<keyof Row, "seq"> & string)[];
  const insert = db.prepare(`INSERT INTO ${table} (${names.join(", ")}) VALUES (${names.map(() => "?").join(", ")})`);
  return (row) => {
    const { lastInsertRowid } = insert.run(names.map((name) => row[name]));
    return { ...row, seq: Number(lastInsertRowid) } as Row;
  };
}

import type { Db } from "../db.js";
import type { AnyColumns, Column, RowOf, TableDefinition } from "../table.js";

/**
 * An INSERT of a whole row into `table`, the one way repos insert a resource: every column of its
 * definition but `seq`, parameters by position and no RETURNING, since both cost a creation more
 * than the insert itself, and the row is known already. It answers the row as stored, with the
 * `seq` SQLite gave it. The statement and its column list are made once, here.
 */
export function rowInserter<Columns extends AnyColumns & { readonly seq: Column<number> }>(
  db: Db,
  table: TableDefinition<string, Columns>,
): (row: Omit<RowOf<Columns>, "seq">) => RowOf<Columns> {
  const names = table.columnNames.filter((name) => name !== "seq") as (Exclude<keyof Columns, "seq"> & string)[];
  const insert = db.prepare(`INSERT INTO ${table.name} (${names.join(", ")}) VALUES (${names.map(() => "?").join(", ")})`);
  return (row) => {
    const { lastInsertRowid } = insert.run(names.map((name) => row[name]));
    return { ...row, seq: Number(lastInsertRowid) } as RowOf<Columns>;
  };
}

import type { Db } from "../open.js";
import { objectRows } from "./object-rows.js";

export interface PageQuery {
  limit: number;
  /** Only rows whose filter column equals this. */
  filter?: string | undefined;
  /** Only rows older than the row with this seq (the `starting_after` cursor). */
  beforeSeq?: number | undefined;
}

/**
 * A listed row: every column but the two no resource shows. Each value read
 * costs (about 0.4 µs here), and leaving these two out took an 11-row page of
 * payment intents from 45 to 32 µs.
 */
export type Listed<Row> = Omit<Row, "seq" | "company_id">;

export interface Page<T> {
  rows: T[];
  hasMore: boolean;
}

/**
 * Newest-first pages of a company's rows in `table`, optionally filtered on one
 * column, with the four statement variants prepared once.
 */
export function pagedLister<Row>(db: Db, table: string, filterColumn: string) {
  const shown = db
    .prepare(`SELECT * FROM ${table} LIMIT 0`)
    .columns()
    .map((column) => column.name)
    .filter((name) => name !== "seq" && name !== "company_id");
  const base = `SELECT ${shown.join(", ")} FROM ${table} WHERE company_id = @company`;
  // better-sqlite3 binds every JS number as a REAL; a LIMIT given as one made the query
  // markedly slower than the same LIMIT as an integer (measured: 65 µs → 51 µs for 10 rows).
  const order = `ORDER BY seq DESC LIMIT CAST(@limit AS INTEGER)`;
  const plain = objectRows<Listed<Row>>(db.prepare(`${base} ${order}`));
  const filtered = objectRows<Listed<Row>>(db.prepare(`${base} AND ${filterColumn} = @filter ${order}`));
  const after = objectRows<Listed<Row>>(db.prepare(`${base} AND seq < @before ${order}`));
  const filteredAfter = objectRows<Listed<Row>>(db.prepare(`${base} AND ${filterColumn} = @filter AND seq < @before ${order}`));
  const seqOf = db.prepare(`SELECT seq FROM ${table} WHERE company_id = ? AND id = ?`).pluck();

  return {
    list(companyId: string, query: PageQuery): Page<Listed<Row>> {
      const stmt =
        query.filter === undefined
          ? query.beforeSeq === undefined ? plain : after
          : query.beforeSeq === undefined ? filtered : filteredAfter;
      const params: Record<string, unknown> = { company: companyId, limit: query.limit + 1 };
      if (query.filter !== undefined) params.filter = query.filter;
      if (query.beforeSeq !== undefined) params.before = query.beforeSeq;
      const rows = stmt.all(params);
      return { rows: rows.slice(0, query.limit), hasMore: rows.length > query.limit };
    },
    /** The seq of a company's row, for a cursor; undefined if not the company's. */
    seqOf(companyId: string, id: string): number | undefined {
      return seqOf.get(companyId, id) as number | undefined;
    },
  };
}

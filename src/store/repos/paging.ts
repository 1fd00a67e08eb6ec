import type { Db } from "../db.js";

export interface PageQuery {
  limit: number;
  /** Only rows whose filter column equals this. */
  filter?: string | undefined;
  /** Only rows older than the row with this seq (the `starting_after` cursor). */
  beforeSeq?: number | undefined;
}

/** A page of resources, each as its JSON text. */
export interface Page {
  json: string[];
  hasMore: boolean;
}

export interface ListerOptions {
  table: string;
  /** The column a list may be filtered on (`?state=`, `?status=`, `?type=`). */
  filterColumn: string;
  /**
   * An SQL expression giving a row's resource as JSON text, member for member
   * the text the API shows for that resource when read by id (`json_object`
   * keeps the order of its members). It may use named parameters, bound on each
   * call of `list`. Its own tests compare the two texts byte for byte.
   */
  json: string;
}

/**
 * Newest-first pages of a company's rows, optionally filtered on one column,
 * with the four statement variants prepared once.
 *
 * SQLite builds each resource's JSON text itself: reading a page as values into
 * objects, then mapping and stringifying them, cost about twice what one text a
 * row from `json_object`, joined, costs for the same output (docs/performance.md).
 */
export function pagedLister(db: Db, { table, filterColumn, json }: ListerOptions) {
  const base = `SELECT ${json} FROM ${table} WHERE company_id = @company`;
  // better-sqlite3 binds every JS number as a REAL; a LIMIT given as one made the query
  // markedly slower than the same LIMIT as an integer.
  const order = `ORDER BY seq DESC LIMIT CAST(@limit AS INTEGER)`;
  const page = (sql: string) => db.prepare(sql).pluck();
  const plain = page(`${base} ${order}`);
  const filtered = page(`${base} AND ${filterColumn} = @filter ${order}`);
  const after = page(`${base} AND seq < @before ${order}`);
  const filteredAfter = page(`${base} AND ${filterColumn} = @filter AND seq < @before ${order}`);
  const seqOf = db.prepare(`SELECT seq FROM ${table} WHERE company_id = ? AND id = ?`).pluck();

  return {
    list(companyId: string, query: PageQuery, bind: Record<string, string> = {}): Page {
      const stmt = query.filter === undefined ? (query.beforeSeq === undefined ? plain : after) : query.beforeSeq === undefined ? filtered : filteredAfter;
      const params: Record<string, unknown> = { ...bind, company: companyId, limit: query.limit + 1 };
      if (query.filter !== undefined) params.filter = query.filter;
      if (query.beforeSeq !== undefined) params.before = query.beforeSeq;
      const rows = stmt.all(params) as string[];
      return { json: rows.slice(0, query.limit), hasMore: rows.length > query.limit };
    },
    /** The seq of a company's row, for a cursor; undefined if not the company's. */
    seqOf(companyId: string, id: string): number | undefined {
      return seqOf.get(companyId, id) as number | undefined;
    },
  };
}

import type { Statement } from "better-sqlite3";
import { requestIdSchema } from "../../domain/answer-schemas.js";
import { resourceOfEventType } from "../../domain/resources.js";
import type { Db } from "../../store/db.js";
import { by, json, member, refersTo, seq, timestamp } from "../../store/snapshot-checks.js";
import type { ColumnCheck } from "../../store/snapshot-rows.js";
import { col, defineTable, handedIn, type RowOf } from "../../store/table.js";
import { objectRows } from "../../store/repos/object-rows.js";
import { pagedLister, type PageQuery } from "../../store/repos/paging.js";

/** An event names an object of the resource its type belongs to (domain/resources.ts); ingested test events name none. */
const eventObject: ColumnCheck = (value, row, known) => {
  if (value === null) return undefined;
  const resource = resourceOfEventType(String(row.type));
  if (!resource?.table) return "names an object, which no event of its type does";
  return known(resource.table, value) ? undefined : `names no ${resource.noun} of the snapshot`;
};

/** An event's body is the event as the API shows it, and says what its row says. */
const eventBody = handedIn((sources) =>
  json(
    () => sources.schemas.event,
    false,
    (parsed, row) => {
      const body = parsed as Record<string, unknown>;
      const differs = (["id", "type", "created_at", "request_id"] as const).find((name) => body[name] !== row[name]);
      return differs === undefined ? undefined : `its ${differs} differs from the row's`;
    },
  ),
);

export const EVENTS = defineTable(
  "events",
  {
    seq: col.seq(seq),
    id: col.text({ check: member((schemas) => schemas.event, "id") }, "UNIQUE"),
    company_id: col.text({ check: refersTo("companies") }, "REFERENCES companies(id)"),
    type: col.text({ check: member((schemas) => schemas.event, "type") }),
    object_id: col.nullableText({ check: eventObject }),
    request_id: col.text({ check: by(() => requestIdSchema) }),
    created_at: col.text({ check: timestamp }),
    /** The exact JSON text sent on every delivery attempt. */
    body: col.text({ check: eventBody }),
  },
  { key: "id" },
);

/** An event as stored: `body` is the exact JSON text sent on every delivery attempt. */
export type StoredEvent = RowOf<typeof EVENTS.columns>;

/** Which events `oldest` and `newest` read: those after `afterSeq`, narrowed by the rest. */
export interface EventQuery {
  afterSeq: number;
  companyId?: string | undefined;
  types?: readonly string[] | undefined;
  objectId?: string | undefined;
}

export function createEventsRepo(db: Db) {
  // Positional parameters and no RETURNING: both cost more than the insert itself.
  const insert = db.prepare(`
    INSERT INTO events (id, company_id, type, object_id, request_id, created_at, body)
    VALUES (?, ?, ?, ?, ?, ?, ?)`);
  const byId = objectRows<StoredEvent>(db.prepare("SELECT * FROM events WHERE company_id = ? AND id = ?"));
  // For the dashboard's object pages: no index on object_id, so it reads the company's events, newest first.
  const forObject = db.prepare("SELECT * FROM events WHERE company_id = ? AND object_id = ? ORDER BY seq DESC LIMIT ?");
  const lastSeq = db.prepare("SELECT COALESCE(MAX(seq), 0) FROM events").pluck();
  // One statement per shape of query (which filters, how many types), made when first asked.
  const matchingStatements = new Map<string, Statement>();
  function matching(query: EventQuery, order: "oldest" | "newest", limit: number): StoredEvent[] {
    const where = ["seq > ?"];
    const values: unknown[] = [query.afterSeq];
    if (query.companyId !== undefined) {
      where.push("company_id = ?");
      values.push(query.companyId);
    }
    if (query.types !== undefined) {
      where.push(`type IN (${query.types.map(() => "?").join(", ")})`);
      values.push(...query.types);
    }
    if (query.objectId !== undefined) {
      where.push("object_id = ?");
      values.push(query.objectId);
    }
    const sql = `SELECT * FROM events WHERE ${where.join(" AND ")} ORDER BY seq ${order === "oldest" ? "ASC" : "DESC"} LIMIT ?`;
    let statement = matchingStatements.get(sql);
    if (!statement) matchingStatements.set(sql, (statement = db.prepare(sql)));
    return statement.all(...values, limit) as StoredEvent[];
  }
  // The stored body is the event's resource, byte for byte.
  const pages = pagedLister(db, { table: "events", filterColumn: "type", json: "body" });
  return {
    insert(event: Omit<StoredEvent, "seq">): StoredEvent {
      const { lastInsertRowid } = insert.run(event.id, event.company_id, event.type, event.object_id, event.request_id, event.created_at, event.body);
      return { seq: Number(lastInsertRowid), ...event };
    },
    byId: (companyId: string, id: string) => byId.get(companyId, id),
    list: (companyId: string, query: PageQuery) => pages.list(companyId, query),
    /** The newest `limit` events about one object (a payment intent, a payout), newest first. */
    forObject: (companyId: string, objectId: string, limit: number) => forObject.all(companyId, objectId, limit) as StoredEvent[],
    seqOf: (companyId: string, id: string) => pages.seqOf(companyId, id),
    /** The highest seq an event has had, 0 for none: what came later is newer. */
    lastSeq: () => lastSeq.get() as number,
    /** The events `query` names, oldest first, at most `limit` (default all). */
    oldest: (query: EventQuery, limit = -1) => matching(query, "oldest", limit),
    /** The newest `limit` events `query` names, oldest first. */
    newest: (query: EventQuery, limit: number) => matching(query, "newest", limit).reverse(),
  };
}

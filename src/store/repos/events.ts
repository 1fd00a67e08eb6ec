import type { Db } from "../open.js";
import { objectRows } from "./object-rows.js";
import { pagedLister, type PageQuery } from "./paging.js";

/** An event as stored: `body` is the exact JSON text sent on every delivery attempt. */
export interface StoredEvent {
  seq: number;
  id: string;
  company_id: string;
  type: string;
  object_id: string | null;
  request_id: string;
  created_at: string;
  body: string;
}

export function createEventsRepo(db: Db) {
  // Positional parameters and no RETURNING: both cost more than the insert itself.
  const insert = db.prepare(`
    INSERT INTO events (id, company_id, type, object_id, request_id, created_at, body)
    VALUES (?, ?, ?, ?, ?, ?, ?)`);
  const byId = objectRows<StoredEvent>(db.prepare("SELECT * FROM events WHERE company_id = ? AND id = ?"));
  // For the dashboard's object pages: no index on object_id, so it reads the company's events, newest first.
  const forObject = db.prepare("SELECT * FROM events WHERE company_id = ? AND object_id = ? ORDER BY seq DESC LIMIT ?");
  const every = db.prepare("SELECT id, company_id, type, object_id FROM events ORDER BY seq");
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
    /** Every event of every company, oldest first, without its body. */
    everyId: () => every.all() as Pick<StoredEvent, "id" | "company_id" | "type" | "object_id">[],
  };
}

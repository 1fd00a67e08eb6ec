import * as z from "zod";
import type { Db } from "../../store/db.js";
import { by, flag, maybeClockMs, member, refersTo, seq, timestamp } from "../../store/snapshot-checks.js";
import { col, defineTable, type RowOf } from "../../store/table.js";
import { webhookUrl } from "../webhook-endpoints/store.js";
import { objectRows } from "../../store/repos/object-rows.js";

export type DeliveryStatus = "pending" | "succeeded" | "failed";

export const DELIVERIES = defineTable(
  "deliveries",
  {
    seq: col.seq(seq),
    id: col.text({ check: member((schemas) => schemas.delivery, "id") }, "UNIQUE"),
    event_id: col.text({ check: refersTo("events") }, "REFERENCES events(id)"),
    company_id: col.text({ check: refersTo("companies") }, "REFERENCES companies(id)"),
    endpoint_id: col.text({ check: refersTo("webhook_endpoints", "webhook endpoints") }, "REFERENCES webhook_endpoints(id)"),
    url: col.text({ check: webhookUrl }),
    status: col.text<DeliveryStatus>({ check: member((schemas) => schemas.delivery, "status") }),
    attempt_count: col.integer({ check: by(() => z.int().min(0)) }, "DEFAULT 0"),
    next_attempt_ms: col.nullableInteger({ check: maybeClockMs }),
    created_at: col.text({ check: timestamp }),
    updated_at: col.text({ check: timestamp }),
    /** 1 when a resend made it, 0 for the deliveries the event got when it happened. */
    resent: col.integer<0 | 1>({ check: flag([0, 1]) }, "DEFAULT 0"),
  },
  { key: "id" },
);

export type DeliveryRow = RowOf<typeof DELIVERIES.columns>;

export interface DeliveryForAttempt {
  delivery: DeliveryRow;
  /** The event's stored JSON, byte for byte what is sent. */
  body: string;
  eventType: string;
  /** The request that caused the event (the event's `request_id`). */
  eventRequestId: string;
  secret: string;
  /** The endpoint's chaos settings (JSON), or null. */
  chaos: string | null;
  /** Whether the endpoint has been deleted since. */
  endpointDeleted: boolean;
}

export function createDeliveriesRepo(db: Db) {
  // Positional parameters and no RETURNING: one delivery per event and endpoint, and both cost more than the insert itself.
  const insert = db.prepare(`
    INSERT INTO deliveries (id, event_id, company_id, endpoint_id, url, status, attempt_count, next_attempt_ms, resent, created_at, updated_at)
    VALUES (?, ?, ?, ?, ?, 'pending', 0, ?, ?, ?, ?)`);
  // Any company's: the dispatcher's jobs and the test harness's waits know a delivery by its id alone.
  const byId = objectRows<DeliveryRow>(db.prepare("SELECT * FROM deliveries WHERE id = ?"));
  const eventIdOf = db.prepare("SELECT event_id FROM deliveries WHERE company_id = ? AND id = ?").pluck();
  // One statement for all an attempt needs: the endpoint even if deleted since (a delivery in flight finishes).
  const forAttempt = objectRows<
    DeliveryRow & {
      event_body: string;
      event_type: string;
      event_request_id: string;
      endpoint_secret: string;
      endpoint_chaos: string | null;
      endpoint_deleted_at: string | null;
    }
  >(
    db.prepare(`
      SELECT d.*, e.body AS event_body, e.type AS event_type, e.request_id AS event_request_id, w.secret AS endpoint_secret, w.chaos AS endpoint_chaos, w.deleted_at AS endpoint_deleted_at
        FROM deliveries d
        JOIN events e ON e.id = d.event_id
        JOIN webhook_endpoints w ON w.id = d.endpoint_id
       WHERE d.id = ?`),
  );
  // `+company_id` keeps SQLite on the event's or the endpoint's index: on the company's index it
  // would read every delivery the company has to find a few.
  const forCompanyEvent = db.prepare("SELECT * FROM deliveries WHERE +company_id = ? AND event_id = ? ORDER BY seq");
  // The test harness's waits watch every company's events.
  const forEvent = db.prepare("SELECT * FROM deliveries WHERE event_id = ? ORDER BY seq");
  // Positional parameters and no RETURNING: once per attempt, and the caller knows the row.
  const update = db.prepare("UPDATE deliveries SET status = ?, attempt_count = ?, next_attempt_ms = ?, updated_at = ? WHERE company_id = ? AND id = ?");
  const pendingForEndpoint = db.prepare("SELECT * FROM deliveries WHERE +company_id = ? AND endpoint_id = ? AND status = 'pending'");
  // Only read for an endpoint whose chaos reorders: a scan of that endpoint's pending deliveries.
  const heldBefore = db
    .prepare(
      `
      SELECT d.id FROM deliveries d
        JOIN jobs j ON j.subject_id = d.id AND j.kind = ?
       WHERE +d.company_id = ? AND d.endpoint_id = ? AND d.status = 'pending' AND d.attempt_count = 0 AND d.seq < ?
         AND json_extract(j.payload, '$.chaos') = 'reordered'
       ORDER BY d.seq`,
    )
    .pluck();
  return {
    insert(row: Pick<DeliveryRow, "id" | "event_id" | "company_id" | "endpoint_id" | "url" | "next_attempt_ms" | "resent" | "created_at">): DeliveryRow {
      const { lastInsertRowid } = insert.run(
        row.id,
        row.event_id,
        row.company_id,
        row.endpoint_id,
        row.url,
        row.next_attempt_ms,
        row.resent,
        row.created_at,
        row.created_at,
      );
      return { seq: Number(lastInsertRowid), ...row, status: "pending", attempt_count: 0, updated_at: row.created_at };
    },
    /** Any company's delivery: for the dispatcher's jobs and the test harness, which know only its id. */
    byId: (id: string) => byId.get(id),
    /** The id of the event a delivery of the company's carries; undefined for an unknown delivery or another company's. */
    eventIdOf: (companyId: string, id: string) => eventIdOf.get(companyId, id) as string | undefined,
    /** For the dispatcher: a delivery with its event's exact bytes and type, and its endpoint's signing secret. */
    forAttempt(id: string): DeliveryForAttempt | undefined {
      const row = forAttempt.get(id);
      if (!row) return undefined;
      const {
        event_body: body,
        event_type: eventType,
        event_request_id: eventRequestId,
        endpoint_secret: secret,
        endpoint_chaos: chaos,
        endpoint_deleted_at: deletedAt,
        ...delivery
      } = row;
      return { delivery, body, eventType, eventRequestId, secret, chaos, endpointDeleted: deletedAt !== null };
    },
    /** The deliveries of one of the company's events, oldest first; none for another company's event. */
    forCompanyEvent: (companyId: string, eventId: string) => forCompanyEvent.all(companyId, eventId) as DeliveryRow[],
    /** An event's deliveries whatever its company: for the test harness, which watches them all. */
    forEvent: (eventId: string) => forEvent.all(eventId) as DeliveryRow[],
    update: (row: Pick<DeliveryRow, "id" | "company_id" | "status" | "attempt_count" | "next_attempt_ms" | "updated_at">) =>
      void update.run(row.status, row.attempt_count, row.next_attempt_ms, row.updated_at, row.company_id, row.id),
    pendingForEndpoint: (companyId: string, endpointId: string) => pendingForEndpoint.all(companyId, endpointId) as DeliveryRow[],
    /** The deliveries to this endpoint made before delivery `seq` whose first attempt chaos holds back (a job of `kind` marked "reordered"). */
    heldBefore: (companyId: string, endpointId: string, seq: number, kind: string) => heldBefore.all(kind, companyId, endpointId, seq) as string[],
  };
}

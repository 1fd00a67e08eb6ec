import type { Db } from "../open.js";

export type DeliveryStatus = "pending" | "succeeded" | "failed";

export interface DeliveryRow {
  seq: number;
  id: string;
  event_id: string;
  company_id: string;
  endpoint_id: string;
  url: string;
  status: DeliveryStatus;
  attempt_count: number;
  next_attempt_ms: number | null;
  created_at: string;
  updated_at: string;
}

export function createDeliveriesRepo(db: Db) {
  const insert = db.prepare(`
    INSERT INTO deliveries (id, event_id, company_id, endpoint_id, url, status, attempt_count, next_attempt_ms, created_at, updated_at)
    VALUES (@id, @event_id, @company_id, @endpoint_id, @url, 'pending', 0, @next_attempt_ms, @created_at, @created_at)
    RETURNING *`);
  const byId = db.prepare("SELECT * FROM deliveries WHERE id = ?");
  const forEvent = db.prepare("SELECT * FROM deliveries WHERE event_id = ? ORDER BY seq");
  const update = db.prepare(`
    UPDATE deliveries SET status = @status, attempt_count = @attempt_count, next_attempt_ms = @next_attempt_ms, updated_at = @updated_at
     WHERE id = @id RETURNING *`);
  const pendingForEndpoint = db.prepare("SELECT * FROM deliveries WHERE endpoint_id = ? AND status = 'pending'");
  return {
    insert: (row: Pick<DeliveryRow, "id" | "event_id" | "company_id" | "endpoint_id" | "url" | "next_attempt_ms" | "created_at">) =>
      insert.get(row) as DeliveryRow,
    byId: (id: string) => byId.get(id) as DeliveryRow | undefined,
    forEvent: (eventId: string) => forEvent.all(eventId) as DeliveryRow[],
    update: (row: Pick<DeliveryRow, "id" | "status" | "attempt_count" | "next_attempt_ms" | "updated_at">) => update.get(row) as DeliveryRow,
    pendingForEndpoint: (endpointId: string) => pendingForEndpoint.all(endpointId) as DeliveryRow[],
  };
}

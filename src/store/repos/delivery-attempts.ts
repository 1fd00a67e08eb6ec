import type { Db } from "../open.js";

export interface DeliveryAttemptRow {
  seq: number;
  delivery_id: string;
  attempted_at: string;
  status_code: number | null;
  error: string | null;
  duration_ms: number | null;
  finished: number;
}

export function createDeliveryAttemptsRepo(db: Db) {
  const start = db.prepare("INSERT INTO delivery_attempts (delivery_id, attempted_at) VALUES (?, ?) RETURNING *");
  const finish = db.prepare(
    "UPDATE delivery_attempts SET status_code = @status_code, error = @error, duration_ms = @duration_ms, finished = 1 WHERE seq = @seq",
  );
  const forDeliveries = db.prepare(
    "SELECT * FROM delivery_attempts WHERE delivery_id IN (SELECT value FROM json_each(?)) ORDER BY seq",
  );
  const markInterrupted = db.prepare(
    "UPDATE delivery_attempts SET error = ?, finished = 1 WHERE finished = 0",
  );
  return {
    /** Written before the request goes out. */
    start: (deliveryId: string, attemptedAt: string) => start.get(deliveryId, attemptedAt) as DeliveryAttemptRow,
    finish: (row: Pick<DeliveryAttemptRow, "seq" | "status_code" | "error" | "duration_ms">) => void finish.run(row),
    forDeliveries: (deliveryIds: readonly string[]) => forDeliveries.all(JSON.stringify(deliveryIds)) as DeliveryAttemptRow[],
    /** At start-up: attempts a crash cut off get their reason; the delivery is sent again. */
    markInterrupted: (reason: string) => markInterrupted.run(reason).changes,
  };
}

import type { ChaosMark } from "../../domain/chaos.js";
import * as z from "zod";
import type { Db } from "../../store/db.js";
import { by, COMPUTED_FORMS, flag, member, refersTo, seq, timestamp } from "../../store/snapshot-checks.js";
import { col, defineTable, type RowOf } from "../../store/table.js";

const attempt = (name: string) => member((schemas) => schemas.deliveryAttempt, name);

/** An attempt is written before the request goes out (finished = 0) and completed after. */
export const DELIVERY_ATTEMPTS = defineTable(
  "delivery_attempts",
  {
    seq: col.seq(seq),
    delivery_id: col.text({ check: refersTo("deliveries") }, "REFERENCES deliveries(id)"),
    attempted_at: col.text({ check: timestamp }),
    status_code: col.nullableInteger({ check: attempt("status_code") }),
    error: col.nullableText({ check: attempt("error") }),
    duration_ms: col.nullableInteger({ check: attempt("duration_ms") }),
    finished: col.integer({ check: flag([0, 1]) }, "DEFAULT 0"),
    /** The first KiB of the receiver's answer, masked; null without an answer (and before migration 060). */
    response_body: col.nullableText({ check: attempt("response_body") }),
    /** Which webhook chaos made this attempt (docs/webhooks.md); null for a normal one. */
    chaos: col.nullableText<ChaosMark | null>({ check: attempt("chaos") }),
    /** The `Service-Signature` header it carried, as sent; null before migration 100 or when never sent. */
    service_signature: col.nullableText({ check: by(() => z.string().regex(COMPUTED_FORMS.signatureHeader).nullable()) }),
  },
  { key: "seq" },
);

export type DeliveryAttemptRow = RowOf<typeof DELIVERY_ATTEMPTS.columns>;

export function createDeliveryAttemptsRepo(db: Db) {
  const start = db.prepare("INSERT INTO delivery_attempts (delivery_id, attempted_at, chaos) VALUES (?, ?, ?)");
  const isOpen = db.prepare("SELECT 1 FROM delivery_attempts WHERE seq = ? AND delivery_id = ? AND finished = 0").pluck();
  // Positional parameters: start and finish run once per attempt.
  const finish = db.prepare(
    "UPDATE delivery_attempts SET attempted_at = ?, status_code = ?, error = ?, duration_ms = ?, response_body = ?, service_signature = ?, finished = 1 WHERE seq = ?",
  );
  const discardUnsent = db.prepare("DELETE FROM delivery_attempts WHERE seq = ? AND delivery_id = ? AND finished = 0");
  const forDeliveries = db.prepare("SELECT * FROM delivery_attempts WHERE delivery_id IN (SELECT value FROM json_each(?)) ORDER BY seq");
  const openDeliveries = db.prepare("SELECT DISTINCT delivery_id FROM delivery_attempts WHERE finished = 0").pluck();
  const markInterrupted = db.prepare("UPDATE delivery_attempts SET error = ?, finished = 1 WHERE finished = 0");
  return {
    /** Written before the request goes out, marked with the chaos that makes it, if any; answers the attempt's seq. */
    start: (deliveryId: string, attemptedAt: string, chaos: ChaosMark | null = null) => Number(start.run(deliveryId, attemptedAt, chaos).lastInsertRowid),
    /** Whether this delivery's attempt `seq` is recorded and not yet finished (a restart finishes every open one). */
    isOpen: (seq: number, deliveryId: string) => isOpen.get(seq, deliveryId) === 1,
    /** The outcome, and the time the request really went out (a first attempt is recorded before its turn comes). */
    finish: (
      row: Pick<DeliveryAttemptRow, "seq" | "attempted_at" | "status_code" | "error" | "duration_ms"> & {
        response_body?: string | null;
        service_signature?: string | null;
      },
    ) => void finish.run(row.attempted_at, row.status_code, row.error, row.duration_ms, row.response_body ?? null, row.service_signature ?? null, row.seq),
    /** Removes an attempt recorded ahead that was never sent (its delivery stopped first). */
    discardUnsent: (seq: number, deliveryId: string) => void discardUnsent.run(seq, deliveryId),
    forDeliveries: (deliveryIds: readonly string[]) => forDeliveries.all(JSON.stringify(deliveryIds)) as DeliveryAttemptRow[],
    /** The deliveries with an attempt recorded and not finished: after a crash or a stop, the ones cut off. */
    openDeliveries: () => openDeliveries.all() as string[],
    /** At start-up: attempts a crash cut off get their reason; the delivery is sent again. */
    markInterrupted: (reason: string) => markInterrupted.run(reason).changes,
  };
}

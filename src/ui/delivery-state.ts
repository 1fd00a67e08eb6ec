import type { AttemptResult, DeliveryStatus } from "../bus.js";
import { MAX_ATTEMPTS } from "../domain/retry-schedule.js";

/** Where one delivery stands, as the live view draws it. */
export type DeliveryState =
  | { kind: "sending" }
  | { kind: "delivered"; attempts: number; last: AttemptResult }
  | { kind: "failing"; attempts: number; last: AttemptResult; nextAttemptMs: number | null }
  | { kind: "gave_up"; attempts: number; last: AttemptResult }
  | { kind: "stopped"; attempts: number; last: AttemptResult | null };

export function isFinished(state: DeliveryState): boolean {
  return state.kind === "delivered" || state.kind === "gave_up" || state.kind === "stopped";
}

/** What an attempt's report says of its delivery: the facts `deliveryStateOf` reads. */
export interface AttemptReport {
  status: DeliveryStatus;
  attempts: number;
  last: AttemptResult;
  nextAttemptMs: number | null;
}

/**
 * Where a delivery stands after an attempt: the one reading of a report that the live view
 * and the log lines both word. A delivery marked failed before its last attempt was stopped
 * (only a deleted endpoint does that); one marked failed after it was given up.
 */
export function deliveryStateOf(report: AttemptReport): Exclude<DeliveryState, { kind: "sending" }> {
  const { attempts, last } = report;
  if (report.status === "succeeded") return { kind: "delivered", attempts, last };
  if (report.status === "failed") return attempts >= MAX_ATTEMPTS ? { kind: "gave_up", attempts, last } : { kind: "stopped", attempts, last };
  return { kind: "failing", attempts, last, nextAttemptMs: report.nextAttemptMs };
}

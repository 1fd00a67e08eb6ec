import type { AttemptResult } from "../bus.js";

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

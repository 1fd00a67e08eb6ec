import { MS } from "./duration.js";

/** Delays before each retry (seed: 30 s, 2 min, 10 min, 1 h, 6 h, 24 h). */
export const RETRY_DELAYS_MS: readonly number[] = [30 * MS.second, 2 * MS.minute, 10 * MS.minute, MS.hour, 6 * MS.hour, MS.day];

/** One first attempt and six retries. */
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

/**
 * When the next attempt is due after attempt number `attempt` (1-based) failed
 * at `attemptedAtMs`, or undefined once the last one has failed. Each delay
 * counts from the attempt before it, so one clock advance makes at most one
 * attempt per delivery.
 *
 * @example
 * nextAttemptAt(1, t) // t + 30 000
 * nextAttemptAt(7, t) // undefined: give up
 */
export function nextAttemptAt(attempt: number, attemptedAtMs: number): number | undefined {
  const delay = RETRY_DELAYS_MS[attempt - 1];
  return delay === undefined ? undefined : attemptedAtMs + delay;
}

/**
 * The time scales a clock may run at: one rule for `--time-scale`, `startPaysim({ timeScale })`,
 * the `time_scale` of `POST /v1/sandbox/instances` and the clock itself (runtime/clock.ts).
 */

/**
 * The fastest time scale: one real second is then 11.6 virtual days, and the longest wait paysim
 * has (a webhook's retries, about 31 hours) passes in a tenth of a second. Started in this
 * century, such a clock needs about three days of running to reach its last instant
 * (MAX_CLOCK_MS of runtime/clock.ts), where it stops.
 */
export const MAX_TIME_SCALE = 1_000_000;

/** The allowed time scales, in words, for messages. */
export const TIME_SCALE_RANGE = `a number greater than 0 and at most ${MAX_TIME_SCALE}`;

/**
 * Whether `value` is a time scale the clock accepts: greater than 0, at most MAX_TIME_SCALE.
 *
 * @example
 * isTimeScale(60) // true
 * isTimeScale(0)  // false
 */
export function isTimeScale(value: unknown): value is number {
  return typeof value === "number" && value > 0 && value <= MAX_TIME_SCALE;
}

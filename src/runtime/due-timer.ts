import type { Clock } from "./clock.js";
import { realTimers, type TimerHandle, type Timers } from "./timers.js";

/** Node's timers take at most this many milliseconds; a later time is re-armed when this one fires. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** Real milliseconds until the clock reaches `dueMs`: the clock runs `timeScale` times faster than real time. */
export function realDelayUntil(dueMs: number, clock: Pick<Clock, "now" | "timeScale">): number {
  return Math.min(MAX_TIMER_MS, Math.max(0, Math.ceil((dueMs - clock.now()) / clock.timeScale)));
}

/**
 * One timer that calls `fire` when the paysim clock reaches the time it is armed for. Arming it
 * again replaces the earlier time; it never keeps the process alive by itself.
 */
export function createDueTimer(clock: Pick<Clock, "now" | "timeScale">, fire: () => void, timers: Timers = realTimers) {
  let timer: TimerHandle | undefined;
  let armedFor = Infinity;
  const clear = () => {
    if (timer) timers.clearTimeout(timer);
    timer = undefined;
    armedFor = Infinity;
  };
  return {
    /** Fires at `dueMs` on the clock; with no time, it is disarmed. */
    arm(dueMs: number | undefined) {
      clear();
      if (dueMs === undefined) return;
      armedFor = dueMs;
      timer = timers.setTimeout(fire, realDelayUntil(dueMs, clock));
      timer.unref();
    },
    /** The clock time it fires at (Infinity when disarmed). */
    armedFor: () => armedFor,
    clear,
  };
}

export type DueTimer = ReturnType<typeof createDueTimer>;

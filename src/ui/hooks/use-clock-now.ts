import { useEffect, useState } from "react";
import type { Clock } from "../../runtime/clock.js";
import { realTimers, type TimerHandle, type Timers } from "../../runtime/timers.js";

/**
 * The clock's time, re-read every `intervalMs` of real time on `timers` (Node's by default):
 * countdowns tick each second, jump after a clock advance, and run faster with a time scale.
 * Each tick sets the next, so the timers port needs no interval of its own.
 */
export function useClockNow(clock: Clock, intervalMs = 1000, timers: Timers = realTimers): number {
  const [now, setNow] = useState(() => clock.now());
  useEffect(() => {
    let timer: TimerHandle;
    const tick = () => {
      timer = timers.setTimeout(tick, intervalMs);
      setNow(clock.now());
    };
    timer = timers.setTimeout(tick, intervalMs);
    return () => timers.clearTimeout(timer);
  }, [clock, intervalMs, timers]);
  return now;
}

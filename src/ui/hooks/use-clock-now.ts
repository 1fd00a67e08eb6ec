import { useEffect, useState } from "react";
import type { Clock } from "../../runtime/clock.js";

/**
 * The clock's time, re-read every `intervalMs` of real time: countdowns tick
 * each second, jump after a clock advance, and run faster with a time scale.
 */
export function useClockNow(clock: Clock, intervalMs = 1000): number {
  const [now, setNow] = useState(() => clock.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(clock.now()), intervalMs);
    return () => clearInterval(timer);
  }, [clock, intervalMs]);
  return now;
}

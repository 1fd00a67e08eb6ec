import type { TimerHandle, Timers } from "../../src/runtime/timers.js";

/** Timers that move only when the test says: `Timers` plus the hands that move them. */
export interface ManualTimers extends Timers {
  /** Moves time forward by `ms`, firing each timer that falls due on the way, earliest first. */
  advance(ms: number): void;
  /** Moves time to the earliest pending timer and fires it (and those due with it); answers how far it moved, undefined with none pending. */
  next(): number | undefined;
  /** Timers set and neither fired nor cleared. */
  pending(): number;
}

interface Pending {
  at: number;
  callback: () => void;
}

/**
 * Fake real time for a component that takes a `Timers` port: nothing fires until `advance` or
 * `next`, and `now()` reads the time they reached (from `start`).
 *
 * @example
 * const timers = manualTimers();
 * const paysim = await usePaysim({ timers });
 * timers.advance(200); // a 200 ms fault hold ends now
 */
export function manualTimers(start = 0): ManualTimers {
  let now = start;
  /** In the order they were set: among timers due at once, the first set fires first, as Node's do. */
  const timers = new Map<TimerHandle, Pending>();
  const earliest = (): [TimerHandle, Pending] | undefined => {
    let found: [TimerHandle, Pending] | undefined;
    for (const entry of timers) if (!found || entry[1].at < found[1].at) found = entry;
    return found;
  };
  const fireUpTo = (target: number) => {
    for (let due = earliest(); due && due[1].at <= target; due = earliest()) {
      timers.delete(due[0]);
      now = Math.max(now, due[1].at);
      due[1].callback();
    }
    now = Math.max(now, target);
  };
  return {
    setTimeout(callback, ms) {
      const handle: TimerHandle = { unref: () => handle };
      timers.set(handle, { at: now + Math.max(0, ms), callback });
      return handle;
    },
    clearTimeout: (handle) => void timers.delete(handle),
    now: () => now,
    advance: (ms) => fireUpTo(now + ms),
    next() {
      const due = earliest();
      if (!due) return undefined;
      const moved = due[1].at - now;
      fireUpTo(due[1].at);
      return moved;
    },
    pending: () => timers.size,
  };
}

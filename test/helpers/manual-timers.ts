import type { TimerHandle, Timers } from "../../src/runtime/timers.js";

/** Timers that move only when the test says: `Timers` plus the hands that move them. */
export interface ManualTimers extends Timers {
  /** Moves time forward by `ms`, firing each timer that falls due on the way, earliest first. */
  advance(ms: number): void;
  /** Moves time to the earliest pending timer and fires it (and those due with it); answers how far it moved, undefined with none pending. */
  next(): number | undefined;
  /** Timers set and neither fired nor cleared. */
  pending(): number;
  /**
   * Resolves once what the fired timers set going has run as far as it goes without I/O or time:
   * every next tick, microtask and immediate queued by then, and those they queue in turn, has run
   * (anyone's, not only theirs: a test's process runs little else). What waits on a socket, on a
   * real timer or on these timers is not waited for.
   *
   * @example
   * timers.advance(50); // the live view's throttle fires
   * await timers.settled(); // the frame it set going is drawn
   */
  settled(): Promise<void>;
  /** Resolves once at least `count` timers are pending (at once if they are): for a timer the code sets in its own time, after a commit say. */
  untilPending(count: number): Promise<void>;
}

/** How many turns `settled()` lets the event loop take before it calls the work endless (a guard, not a timing). */
const MOST_TURNS = 10_000;

/** Immediates queued and not run yet, ref'd ones (a test sets none unref'd). */
const queuedImmediates = () => process.getActiveResourcesInfo().filter((resource) => resource === "Immediate").length;

/** One turn of the event loop: the microtasks and ticks queued before it, then every immediate queued before this one. */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

async function settled(): Promise<void> {
  for (let turns = 0; turns < MOST_TURNS; turns++) {
    await turn();
    if (queuedImmediates() === 0) return;
  }
  throw new Error(`work still queued after ${MOST_TURNS} turns of the event loop: something queues an immediate forever`);
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
  /** Who waits for a count of pending timers (`untilPending`). */
  const waiting = new Set<{ count: number; resolve: () => void }>();
  const wake = () => {
    for (const waiter of waiting) {
      if (timers.size < waiter.count) continue;
      waiting.delete(waiter);
      waiter.resolve();
    }
  };
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
      wake();
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
    settled,
    untilPending(count) {
      if (timers.size >= count) return Promise.resolve();
      return new Promise((resolve) => waiting.add({ count, resolve }));
    },
  };
}

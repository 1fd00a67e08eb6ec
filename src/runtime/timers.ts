/** What a timer answers: Node's `Timeout`, or a test's own handle. */
export interface TimerHandle {
  /** Lets the process exit while this timer is still pending. */
  unref(): unknown;
}

/**
 * The real-time waits and measures of a component (a fault's hold, a webhook's timeout, a
 * scaled clock's due timer, the live view's frame throttle, how long an answer took). Node's
 * by default; paysim's own tests pass timers they move by hand, so that such a wait ends when
 * the test says, never with the load of the machine.
 */
export interface Timers {
  setTimeout(callback: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
  /** Real milliseconds from an arbitrary origin, never running backwards: for how long something took. */
  now(): number;
}

/** Node's own timers and monotonic time. */
export const realTimers: Timers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
  now: () => performance.now(),
};

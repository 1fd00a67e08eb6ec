import { realTimers, type Timers } from "../runtime/timers.js";

/**
 * The real-time waits of fault rules (a `timeout` holding a connection, a `latency` holding an
 * answer) and the HTTP waits for events and deliveries. A stopping paysim cuts every one short
 * (`releaseAll`), so that neither `close()` nor SIGTERM waits for them; each also ends when its
 * caller says the connection is gone. The waits are made on `timers` (Node's by default).
 */
export function createHeldRequests(timers: Timers = realTimers) {
  const releases = new Set<() => void>();
  /** The requests held until paysim stops (the HTTP waits): what stops each, and when its answer has left. */
  const untilStop = new Map<() => void, Promise<void>>();
  let stopped = false;

  return {
    /**
     * Resolves true once `ms` real milliseconds have passed, or false as soon as it is released:
     * by `releaseAll`, or by `cutShort` calling the function it is given (answer what stops it
     * listening). A hold asked for after `releaseAll` is released at once.
     */
    hold(ms: number, cutShort: (release: () => void) => () => void = () => () => {}): Promise<boolean> {
      if (stopped) return Promise.resolve(false);
      return new Promise<boolean>((resolve) => {
        let stopListening = () => {};
        const finish = (served: boolean) => {
          if (!releases.delete(release)) return;
          timers.clearTimeout(timer);
          stopListening();
          resolve(served);
        };
        const release = () => finish(false);
        releases.add(release);
        const timer = timers.setTimeout(() => finish(true), ms);
        stopListening = cutShort(release);
      });
    },

    /**
     * Keeps a request that waits on its own (an HTTP wait) until paysim stops: `onStop` is called
     * then, or at once if it has stopped already, and `releaseAll` resolves only once `answered` has,
     * so that the answer the stop makes leaves before the connections close. Answers the function
     * that forgets the request once it has ended on its own.
     */
    untilStop(onStop: () => void, answered: Promise<void>): () => void {
      if (stopped) {
        onStop();
        return () => {};
      }
      untilStop.set(onStop, answered);
      return () => void untilStop.delete(onStop);
    },

    /** Releases every hold, now and from now on; resolves once the requests held until the stop have answered. */
    releaseAll(): Promise<void> {
      stopped = true;
      for (const release of [...releases]) release();
      const stopping = [...untilStop];
      untilStop.clear();
      for (const [onStop] of stopping) onStop();
      return Promise.all(stopping.map(([, answered]) => answered)).then(() => {});
    },

    /** How many requests are held until the stop: none is kept for one that ended. */
    heldUntilStop: () => untilStop.size,
  };
}

export type HeldRequests = ReturnType<typeof createHeldRequests>;

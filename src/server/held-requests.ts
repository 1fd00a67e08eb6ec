/**
 * The real-time waits of fault rules (a `timeout` holding a connection, a `latency` holding an
 * answer). A stopping paysim cuts every one short (`releaseAll`), so that neither `close()` nor
 * SIGTERM waits for them; each also ends when its caller says the connection is gone.
 */
export function createHeldRequests() {
  const releases = new Set<() => void>();
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
          clearTimeout(timer);
          stopListening();
          resolve(served);
        };
        const release = () => finish(false);
        releases.add(release);
        const timer = setTimeout(() => finish(true), ms);
        stopListening = cutShort(release);
      });
    },

    /** Releases every hold, now and from now on. */
    releaseAll(): void {
      stopped = true;
      for (const release of [...releases]) release();
    },
  };
}

export type HeldRequests = ReturnType<typeof createHeldRequests>;

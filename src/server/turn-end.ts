/**
 * Holds work until the end of the event loop's turn (its check phase), then
 * runs everything held, in order. Answers sent this way leave together after
 * the server has read every request that was ready: on loopback, writing each
 * answer the moment it was ready woke the client for every one of them, and
 * cost a read more than twice what paysim does to find the payment intent.
 * The wait is at most one turn of the loop.
 */
export function createTurnEnd() {
  let held: (() => void)[] = [];

  function runHeld(): void {
    const now = held;
    held = [];
    for (const run of now) run();
  }

  return function atTurnEnd<T>(fn: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (held.length === 0) setImmediate(runHeld);
      held.push(() => {
        try {
          resolve(fn());
        } catch (error) {
          reject(error);
        }
      });
    });
  };
}

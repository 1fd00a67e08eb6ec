import type { Db } from "./open.js";

/**
 * Group commit: the writes of many concurrent requests share one transaction,
 * committed once the event loop has taken every request that was ready; each
 * request is answered only after that COMMIT. A commit is the dearest part of
 * a write, and this makes one serve many.
 *
 * Each unit runs in its own SAVEPOINT, so a unit that throws (a refused
 * transition, a validation error) rolls back alone and its request is answered
 * at once; the other units of the batch are untouched.
 */
export function createGroupCommit(db: Db) {
  const begin = db.prepare("BEGIN IMMEDIATE");
  const commit = db.prepare("COMMIT");
  const rollback = db.prepare("ROLLBACK");
  const savepoint = db.prepare("SAVEPOINT unit");
  const release = db.prepare("RELEASE unit");
  const rollbackTo = db.prepare("ROLLBACK TO unit");

  let batch: { committed: Promise<void>; resolve: () => void; reject: (error: unknown) => void } | undefined;
  /** Depth of units and transactions running now: a flush inside one would commit half a unit. */
  let depth = 0;

  /** Commits the open batch, if any; its units' answers go out after this. */
  function flush(): void {
    if (!batch || depth > 0) return;
    const open = batch;
    batch = undefined;
    try {
      commit.run();
      open.resolve();
    } catch (error) {
      if (db.inTransaction) rollback.run();
      open.reject(error);
    }
  }

  return {
    flush,

    /**
     * Resolves once the open group is committed and durable; undefined when no
     * group is open (everything written is durable already). Reads share the
     * connection and so see the open group: an answer waits for this, so that
     * nothing a client was shown can be lost by a crash.
     */
    whenOpenGroupDurable(): Promise<void> | undefined {
      return batch?.committed;
    },

    /**
     * Runs `fn` as one unit of the open batch (opening one if needed). Returns
     * its result at once; `committed` settles when the batch is durable.
     */
    unit<T>(fn: () => T): { result: T; committed: Promise<void> } {
      if (!batch) {
        begin.run();
        let resolve!: () => void;
        let reject!: (error: unknown) => void;
        const committed = new Promise<void>((res, rej) => {
          resolve = res;
          reject = rej;
        });
        committed.catch(() => {}); // each unit's caller handles it; never an unhandled rejection
        batch = { committed, resolve, reject };
        setImmediate(flush);
      }
      const committed = batch.committed;
      savepoint.run();
      depth++;
      try {
        const result = fn();
        release.run();
        return { result, committed };
      } catch (error) {
        rollbackTo.run();
        release.run();
        throw error;
      } finally {
        depth--;
      }
    },

    /**
     * A transaction of its own, durable when it returns: commits the open batch
     * first. Inside a unit it nests as a savepoint of that unit instead.
     */
    transaction<T>(fn: () => T): T {
      if (depth === 0) flush();
      depth++;
      try {
        return db.transaction(fn).immediate();
      } finally {
        depth--;
      }
    },
  };
}

export type GroupCommit = ReturnType<typeof createGroupCommit>;

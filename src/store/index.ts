import { createGroupCommit } from "./group-commit.js";
import type { Db } from "./db.js";
import { REPOS } from "./schema.js";
import { exportSnapshot, serializeCommitted } from "./snapshot.js";
import type { KeptFile } from "../shared/owned-file.js";

type Repos = { readonly [K in keyof typeof REPOS]: ReturnType<(typeof REPOS)[K]> };

/**
 * Every table's statements for this database, each table's prepared once, on its first use: a run
 * that never resets, pays out or adds a fault rule prepares none of their statements, and
 * starting an instance prepares only what starting reads (docs/performance.md, "Pay only for
 * what is used"). SQL lives only below here.
 */
export function createStore(db: Db): StoreShape {
  const group = createGroupCommit(db);
  const store = {
    db,
    /** Runs `fn` in one IMMEDIATE transaction, durable when it returns (nested calls become savepoints). */
    transaction: group.transaction,
    /** Runs `fn` as one unit of a group commit: `committed` settles once it is durable. */
    unit: group.unit,
    /** Commits the open group now (before closing the database). */
    flush: group.flush,
    /** Resolves once the open group commit is durable; undefined when no group is open. */
    whenOpenGroupDurable: group.whenOpenGroupDurable,
    /** Writes the committed state to `path` atomically (mode 0600), never over a live database or a file that is not a snapshot; see snapshot.ts. */
    snapshot: async (path: string, kept: readonly KeptFile[], signal?: AbortSignal) =>
      exportSnapshot(path, () => serializeCommitted(db, group.flush), kept, signal),
  };
  for (const name of Object.keys(REPOS) as (keyof Repos)[]) {
    let repo: Repos[typeof name] | undefined;
    Object.defineProperty(store, name, { enumerable: true, get: () => (repo ??= REPOS[name](db)) });
  }
  return store as typeof store & Repos;
}

interface StoreShape extends Repos {
  db: Db;
  transaction<T>(fn: () => T): T;
  unit<T>(fn: () => T): { result: T; committed: Promise<void> };
  flush(): void;
  /** Resolves once the open group commit is durable; undefined when no group is open. */
  whenOpenGroupDurable(): Promise<void> | undefined;
  /**
   * Writes the committed state to `path` atomically (mode 0600), never over a live database, one
   * of `kept` or a file that is not a snapshot; `signal` aborts the write, leaving nothing behind.
   * See snapshot.ts.
   */
  snapshot(path: string, kept: readonly KeptFile[], signal?: AbortSignal): Promise<void>;
}

export type Store = StoreShape;

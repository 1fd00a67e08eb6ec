import type { Store } from "../store/index.js";
import type { JobRow } from "../store/repos/jobs.js";

/** Before every job: due times and seqs are never negative. */
const BEFORE_ALL = { due: -1, seq: -1 };

/**
 * Pages through the due jobs of some kinds in due order (due time, then seq), moving only
 * forward: a job it has handed out is never read again, however long it then waits.
 */
export function createJobCursor(jobs: Store["jobs"]) {
  let after = BEFORE_ALL;
  return {
    /** The next `limit` jobs of these kinds due by `nowMs` past the cursor; the cursor moves past them. */
    next(kinds: readonly string[], nowMs: number, limit: number): JobRow[] {
      const rows = jobs.dueOfKinds(kinds, nowMs, after, limit);
      const last = rows.at(-1);
      if (last) after = { due: last.due_ms, seq: last.seq };
      return rows;
    },
  };
}

export type JobCursor = ReturnType<typeof createJobCursor>;

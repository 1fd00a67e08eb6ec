import type { Ids } from "../domain/ids.js";
import type { Store } from "../store/index.js";
import { jobFromRow, type SyncJobHandler, type TrackedJob, type TransactionPort } from "./job.js";
import { createJobCursor } from "./job-cursor.js";

const BATCH = 500;

/**
 * Jobs that only touch the database (payout moves): each runs inside the unit of work that
 * removes its row, so it happens exactly once or not at all. A handler that throws leaves its
 * writes rolled back and its job to `postpone`.
 */
export function createSyncJobs<W>({
  store,
  run,
  ids,
  postpone,
  stopped,
}: {
  store: Store;
  run: TransactionPort<W>;
  /** Makes the request id each job's change runs under. */
  ids: Ids;
  postpone: (job: TrackedJob, error: unknown) => void;
  stopped: () => boolean;
}) {
  const handlers = new Map<string, SyncJobHandler<W>>();

  function runOne(job: TrackedJob, handler: SyncJobHandler<W>) {
    try {
      run(ids.newId("req"), (work) => {
        handler(job, work);
        store.jobs.remove(job.seq);
      });
    } catch (error) {
      postpone(job, error);
    }
  }

  return {
    register(kind: string, handler: SyncJobHandler<W>) {
      handlers.set(kind, handler);
    },

    /** Runs every sync job due by `now`, in due order; true if any ran (one may have made another due). */
    runDue(now: number): boolean {
      const kinds = [...handlers.keys()];
      if (kinds.length === 0) return false;
      let ran = false;
      const cursor = createJobCursor(store.jobs);
      for (;;) {
        const rows = cursor.next(kinds, now, BATCH);
        if (rows.length === 0 || stopped()) return ran;
        for (const row of rows) {
          runOne(jobFromRow(row), handlers.get(row.kind)!);
          ran = true;
          if (stopped()) return ran;
        }
      }
    },
  };
}

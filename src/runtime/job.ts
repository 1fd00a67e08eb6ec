import type { JobRow } from "../store/repos/jobs.js";

/** A job as its handler sees it. */
export interface Job<P = unknown> {
  kind: string;
  subjectId: string;
  dueMs: number;
  payload: P;
}

/**
 * A job as the scheduler tracks it. Its seq is its row's; a job with no row (`runNow`) gets a
 * negative one, which no row has: only the scheduler's own modules ever see it.
 */
export interface TrackedJob<P = unknown> extends Job<P> {
  seq: number;
}

export interface NewJob {
  kind: string;
  subjectId: string;
  dueMs: number;
  payload?: unknown;
}

/** A job that only touches the database: it runs inside the unit that removes it. */
export type SyncJobHandler<W> = (job: Job, work: W) => void;

/**
 * A job that waits on the outside world (a webhook attempt). It may not write
 * while it waits; it resolves to the writes to commit, which run in the unit
 * that removes the job. Until then the job row stays: a crash re-runs it.
 */
export type AsyncJobHandler<W> = (job: Job, signal: AbortSignal) => Promise<((work: W) => void) | void>;

/**
 * At most `max` async jobs with the same key wait on the outside world at once
 * (one slow webhook endpoint must not hold every slot). A job's slot is freed as
 * soon as its handler resolves: committing its writes needs no endpoint.
 */
export interface ConcurrencyLimit {
  key: (job: Job) => string;
  max: number;
}

/**
 * The port through which the scheduler commits a job's writes: the wiring fills it with the
 * services' unit of work, whose `W` (what a change may do besides writing rows) the scheduler only
 * hands on to the job's handler.
 */
export interface TransactionPort<W> {
  /** Runs `fn` in its own transaction, durable when it returns. */
  <T>(requestId: string, fn: (work: W) => T): T;
  /** Runs `fn` now as one unit of a group commit; resolves once the group is durable. */
  grouped<T>(requestId: string, fn: (work: W) => T): Promise<T>;
}

export const jobFromRow = (row: JobRow): TrackedJob => ({
  seq: row.seq,
  kind: row.kind,
  subjectId: row.subject_id,
  dueMs: row.due_ms,
  payload: JSON.parse(row.payload) as unknown,
});

export const rowFromJob = (job: TrackedJob): JobRow => ({
  seq: job.seq,
  kind: job.kind,
  subject_id: job.subjectId,
  due_ms: job.dueMs,
  payload: JSON.stringify(job.payload),
});

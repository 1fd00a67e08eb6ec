import type { JobRow } from "../store/repos/jobs.js";

/** A job as its handler sees it. */
export interface Job<P = unknown> {
  /** Its row's; a job with no row (the scheduler's `runNow`) has a negative one, which no row has. */
  seq: number;
  kind: string;
  subjectId: string;
  dueMs: number;
  payload: P;
}

export interface NewJob {
  kind: string;
  subjectId: string;
  dueMs: number;
  payload?: unknown;
}

export const jobFromRow = (row: JobRow): Job => ({
  seq: row.seq,
  kind: row.kind,
  subjectId: row.subject_id,
  dueMs: row.due_ms,
  payload: JSON.parse(row.payload) as unknown,
});

export const rowFromJob = (job: Job): JobRow => ({
  seq: job.seq,
  kind: job.kind,
  subject_id: job.subjectId,
  due_ms: job.dueMs,
  payload: JSON.stringify(job.payload),
});

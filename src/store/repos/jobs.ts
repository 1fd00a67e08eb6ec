import type { Db } from "../open.js";

export interface JobRow {
  seq: number;
  kind: string;
  subject_id: string;
  due_ms: number;
  /** JSON text. */
  payload: string;
}

export function createJobsRepo(db: Db) {
  const insert = db.prepare("INSERT INTO jobs (kind, subject_id, due_ms, payload) VALUES (@kind, @subject_id, @due_ms, @payload) RETURNING *");
  const remove = db.prepare("DELETE FROM jobs WHERE seq = ?");
  const removeForSubject = db.prepare("DELETE FROM jobs WHERE subject_id = ? AND kind = ?");
  const forSubject = db.prepare("SELECT * FROM jobs WHERE subject_id = ? AND kind = ? ORDER BY due_ms, seq");
  // Keyset pagination over due jobs in (due_ms, seq) order.
  const dueAfter = db.prepare(`
    SELECT * FROM jobs
     WHERE due_ms <= @now AND (due_ms > @due OR (due_ms = @due AND seq > @seq))
     ORDER BY due_ms, seq LIMIT @limit`);
  const nextDueAfter = db.prepare("SELECT MIN(due_ms) FROM jobs WHERE due_ms > ?").pluck();
  return {
    insert: (job: Omit<JobRow, "seq">) => insert.get(job) as JobRow,
    remove: (seq: number) => remove.run(seq).changes === 1,
    removeForSubject: (subjectId: string, kind: string) => removeForSubject.run(subjectId, kind).changes,
    forSubject: (subjectId: string, kind: string) => forSubject.all(subjectId, kind) as JobRow[],
    /** Jobs due at or before `nowMs` that come after (due, seq) in due order. */
    dueAfter: (nowMs: number, due: number, seq: number, limit: number) =>
      dueAfter.all({ now: nowMs, due: Number.isFinite(due) ? due : -1, seq, limit }) as JobRow[],
    /** The earliest due time after `nowMs`, if any job waits. */
    nextDueAfter: (nowMs: number) => (nextDueAfter.get(nowMs) as number | null) ?? undefined,
  };
}

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
  // Keyset pagination over due jobs of some kinds, in (due_ms, seq) order.
  const dueOfKinds = db.prepare(`
    SELECT * FROM jobs
     WHERE kind IN (SELECT value FROM json_each(@kinds)) AND due_ms <= @now
       AND (due_ms > @due OR (due_ms = @due AND seq > @seq))
     ORDER BY due_ms, seq LIMIT @limit`);
  const nextDueAfter = db.prepare("SELECT MIN(due_ms) FROM jobs WHERE due_ms > ?").pluck();
  return {
    insert: (job: Omit<JobRow, "seq">) => insert.get(job) as JobRow,
    remove: (seq: number) => remove.run(seq).changes === 1,
    removeForSubject: (subjectId: string, kind: string) => removeForSubject.run(subjectId, kind).changes,
    forSubject: (subjectId: string, kind: string) => forSubject.all(subjectId, kind) as JobRow[],
    /** Jobs of these kinds due at or before `nowMs` that come after (due, seq) in due order. */
    dueOfKinds: (kinds: readonly string[], nowMs: number, after: { due: number; seq: number }, limit: number) =>
      dueOfKinds.all({ kinds: JSON.stringify(kinds), now: nowMs, due: after.due, seq: after.seq, limit }) as JobRow[],
    /** The earliest due time after `nowMs`, if any job waits. */
    nextDueAfter: (nowMs: number) => (nextDueAfter.get(nowMs) as number | null) ?? undefined,
  };
}

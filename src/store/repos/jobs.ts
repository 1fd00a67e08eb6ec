import * as z from "zod";
import type { Db } from "../db.js";
import { by, clockMs, seq } from "../snapshot-checks.js";
import type { ColumnCheck } from "../snapshot-rows.js";
import type { JobSnapshotRule } from "../snapshot-sources.js";
import { col, defineTable, handedIn, type RowOf } from "../table.js";
import { objectRows } from "./object-rows.js";

/** Each kind of job is checked as its owner says (the snapshot sources' `jobs`); its kind column comes first, so the others see a known kind. */
const ofKind = (part: keyof JobSnapshotRule) =>
  handedIn(
    (sources): ColumnCheck =>
      (value, row, known) =>
        sources.jobs[String(row.kind)]?.[part](value, row, known),
  );

export const JOBS = defineTable(
  "jobs",
  {
    seq: col.seq(seq, true),
    kind: col.text({ check: handedIn((sources) => by(() => z.enum(Object.keys(sources.jobs) as [string, ...string[]]))) }),
    subject_id: col.text({ check: ofKind("subject") }),
    due_ms: col.integer({ check: clockMs }),
    /** JSON text. */
    payload: col.text({ check: ofKind("payload") }),
  },
  { key: "seq" },
);

export type JobRow = RowOf<typeof JOBS.columns>;

export function createJobsRepo(db: Db) {
  // Positional parameters and no RETURNING: one job per webhook delivery, and both cost more than the insert itself.
  const insert = db.prepare("INSERT INTO jobs (kind, subject_id, due_ms, payload) VALUES (?, ?, ?, ?)");
  const remove = db.prepare("DELETE FROM jobs WHERE seq = ?");
  const forSubject = db.prepare("SELECT * FROM jobs WHERE subject_id = ? AND kind = ? ORDER BY due_ms, seq");
  // Keyset pagination over due jobs of some kinds, in (due_ms, seq) order. It runs on every drain:
  // the row value lets SQLite seek to the cursor, and numbers are cast because better-sqlite3 binds
  // every JS number as a REAL, and a REAL bound against an INTEGER column defeats the index seek.
  const dueOfKinds = objectRows<JobRow>(
    db.prepare(`
      SELECT * FROM jobs
       WHERE kind IN (SELECT value FROM json_each(?)) AND due_ms <= CAST(? AS INTEGER)
         AND (due_ms, seq) > (CAST(? AS INTEGER), CAST(? AS INTEGER))
       ORDER BY due_ms, seq LIMIT CAST(? AS INTEGER)`),
  );
  const nextDueAfter = db.prepare("SELECT MIN(due_ms) FROM jobs WHERE due_ms > ?").pluck();
  return {
    insert(job: Omit<JobRow, "seq">): JobRow {
      const { lastInsertRowid } = insert.run(job.kind, job.subject_id, job.due_ms, job.payload);
      return { seq: Number(lastInsertRowid), ...job };
    },
    remove: (seq: number) => remove.run(seq).changes === 1,
    forSubject: (subjectId: string, kind: string) => forSubject.all(subjectId, kind) as JobRow[],
    /** Jobs of these kinds due at or before `nowMs` that come after (due, seq) in due order. */
    dueOfKinds: (kinds: readonly string[], nowMs: number, after: { due: number; seq: number }, limit: number) =>
      dueOfKinds.all(JSON.stringify(kinds), nowMs, after.due, after.seq, limit),
    /** The earliest due time after `nowMs`, if any job waits. */
    nextDueAfter: (nowMs: number) => (nextDueAfter.get(nowMs) as number | null) ?? undefined,
  };
}

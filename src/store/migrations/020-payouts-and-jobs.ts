import type { Migration } from "./migration.js";

/** Payouts, and the persisted scheduler's jobs (payout moves now, webhook attempts next). */
export const migration020: Migration = {
  version: 20,
  up(db) {
    db.exec(`
      CREATE TABLE payouts (
        seq                INTEGER PRIMARY KEY,
        id                 TEXT NOT NULL UNIQUE,
        company_id         TEXT NOT NULL REFERENCES companies(id),
        reference          TEXT NOT NULL,
        amount             INTEGER NOT NULL,
        currency           TEXT NOT NULL,
        status             TEXT NOT NULL,
        destination_type   TEXT NOT NULL,
        destination_token  TEXT NOT NULL,
        destination_masked TEXT NOT NULL,
        description        TEXT,
        failure_reason     TEXT,
        amount_reversed    INTEGER NOT NULL DEFAULT 0,
        created_at         TEXT NOT NULL,
        updated_at         TEXT NOT NULL,
        UNIQUE (company_id, reference)
      );
      CREATE INDEX payouts_by_company ON payouts (company_id, seq);
      CREATE INDEX payouts_by_status ON payouts (company_id, status, seq);

      -- A job is due at a time of the paysim clock; it stays until its handler
      -- has committed, so a crash mid-job runs it again (handlers are idempotent).
      -- AUTOINCREMENT: a seq is never reused, so the scheduler's cursor and its
      -- in-flight set can never mistake a new job for a finished one.
      CREATE TABLE jobs (
        seq        INTEGER PRIMARY KEY AUTOINCREMENT,
        kind       TEXT NOT NULL,
        subject_id TEXT NOT NULL,
        due_ms     INTEGER NOT NULL,
        payload    TEXT NOT NULL
      );
      CREATE INDEX jobs_by_due ON jobs (due_ms, seq);
      CREATE INDEX jobs_by_kind_due ON jobs (kind, due_ms, seq);
      CREATE INDEX jobs_by_subject ON jobs (subject_id);
    `);
  },
};

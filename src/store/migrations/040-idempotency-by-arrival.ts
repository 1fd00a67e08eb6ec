import type { Migration } from "./migration.js";

/**
 * Idempotency records in arrival order, found through an index on the key.
 *
 * They were a WITHOUT ROWID table keyed by (company, method, path, key hash),
 * each row holding its whole stored answer. Keys are random, so every creation
 * inserted a ~600-byte row at a random place in that tree: a page rewritten per
 * creation, and page splits that moved whole answers. Now the answers append to
 * the end of the table and only a short index entry lands at random, which made
 * the commit, the insert and the lookup all cheaper (docs/performance.md). The
 * key hash leads the index: it tells rows apart at its first bytes.
 */
export const migration040: Migration = {
  version: 40,
  up(db) {
    db.exec(`
      CREATE TABLE idempotency_keys_by_arrival (
        seq         INTEGER PRIMARY KEY,
        company_id  TEXT NOT NULL,
        method      TEXT NOT NULL,
        path        TEXT NOT NULL,
        key         TEXT NOT NULL,
        fingerprint TEXT NOT NULL,
        status      INTEGER NOT NULL,
        body        TEXT NOT NULL,
        created_ms  INTEGER NOT NULL
      );
      INSERT INTO idempotency_keys_by_arrival (company_id, method, path, key, fingerprint, status, body, created_ms)
        SELECT company_id, method, path, key, fingerprint, status, body, created_ms FROM idempotency_keys ORDER BY created_ms;
      DROP TABLE idempotency_keys;
      ALTER TABLE idempotency_keys_by_arrival RENAME TO idempotency_keys;
      CREATE UNIQUE INDEX idempotency_keys_by_key ON idempotency_keys (key, company_id, method, path);
    `);
  },
};

import type { Migration } from "./migration.js";

/**
 * Fault rules (docs/faults.md): per company, tried oldest first (`seq`). `remaining` counts the hits
 * left (the rule is deleted when none are); `matched` counts the requests it has matched so far,
 * the ordinal its seeded draw is taken for, so that a run repeats.
 */
export const migration070: Migration = {
  version: 70,
  up(db) {
    db.exec(`
      CREATE TABLE fault_rules (
        seq         INTEGER PRIMARY KEY,
        id          TEXT NOT NULL UNIQUE,
        company_id  TEXT NOT NULL REFERENCES companies(id),
        fault       TEXT NOT NULL,
        method      TEXT,
        path        TEXT,
        times       INTEGER NOT NULL,
        remaining   INTEGER NOT NULL,
        probability REAL NOT NULL,
        latency_ms  INTEGER,
        seed        INTEGER NOT NULL,
        matched     INTEGER NOT NULL DEFAULT 0,
        created_at  TEXT NOT NULL
      );
      CREATE INDEX fault_rules_by_company ON fault_rules (company_id, seq);
    `);
  },
};

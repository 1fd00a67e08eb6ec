import type { Migration } from "./migration.js";

/**
 * The `Retry-After` seconds a `rate_limited` fault rule answers with (docs/faults.md); NULL for the
 * other faults. The rules from before this step answered 1, and keep doing so.
 */
export const migration110: Migration = {
  version: 110,
  up(db) {
    db.exec(`
      ALTER TABLE fault_rules ADD COLUMN retry_after_seconds INTEGER;
      UPDATE fault_rules SET retry_after_seconds = 1 WHERE fault = 'rate_limited';
    `);
  },
};

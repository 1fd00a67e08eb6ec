import type { Migration } from "./migration.js";

/**
 * The `t` each delivery attempt was signed with (SPEC §7, §16), in unix seconds of the real
 * clock, so the dashboard can show the exact `Service-Signature` a receiver got: the rest of it
 * follows from the stored body and the endpoint's secret. Attempts from before this step, and
 * one cut off before it was sent, have none: NULL.
 */
export const migration100: Migration = {
  version: 100,
  up(db) {
    db.exec("ALTER TABLE delivery_attempts ADD COLUMN signed_t INTEGER;");
  },
};

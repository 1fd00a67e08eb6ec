import type { Migration } from "./migration.js";

/**
 * Which deliveries a resend made (`POST /v1/events/:id/resend`): 1 for those, 0 for the
 * deliveries an event got when it happened, and for every delivery from before this step (a
 * resend then was not told apart). A wait may ask for a resend's delivery (docs/testing.md).
 */
export const migration120: Migration = {
  version: 120,
  up(db) {
    db.exec("ALTER TABLE deliveries ADD COLUMN resent INTEGER NOT NULL DEFAULT 0;");
  },
};

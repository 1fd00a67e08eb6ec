import type { Migration } from "./migration.js";

/**
 * Marks the webhook endpoints a `--forward-to` made (1). A start registers the URLs it names
 * and removes the marked endpoints it does not name, leaving those made through the API
 * or a config file alone (0). Live endpoints from before this step cannot be told apart: they
 * get 2, "made before the marking". The next start adopts those its --forward-to names (1) and
 * says once, in its banner, which others it keeps (then 0): paysim does not guess which a
 * `--forward-to` made, it tells the user how to remove them (docs/cli.md).
 */
export const migration050: Migration = {
  version: 50,
  up(db) {
    db.exec("ALTER TABLE webhook_endpoints ADD COLUMN from_forward_to INTEGER NOT NULL DEFAULT 0");
    db.exec("UPDATE webhook_endpoints SET from_forward_to = 2 WHERE deleted_at IS NULL");
  },
};

import type { Migration } from "./migration.js";

/**
 * Marks the webhook endpoints a `--forward-to` made. A start registers the URLs it names
 * and removes the marked endpoints it does not name, leaving those made through the API
 * or a config file alone. Endpoints from before this step cannot be told apart: they
 * count as made through the API, and stay until removed (`paysim endpoints remove`).
 */
export const migration050: Migration = {
  version: 50,
  up(db) {
    db.exec("ALTER TABLE webhook_endpoints ADD COLUMN from_forward_to INTEGER NOT NULL DEFAULT 0");
  },
};

import type { Migration } from "./migration.js";

/**
 * The `Service-Signature` header each delivery attempt carried (docs/webhooks.md and docs/dashboard.md), as sent, so the
 * dashboard shows exactly what a receiver got, even after the endpoint's secret changed. It is a
 * MAC of the body, not the secret. Attempts from before this step, and one cut off before it was
 * sent, have none: NULL.
 */
export const migration100: Migration = {
  version: 100,
  up(db) {
    db.exec("ALTER TABLE delivery_attempts ADD COLUMN service_signature TEXT;");
  },
};

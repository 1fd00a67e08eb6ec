import type { Migration } from "./migration.js";

/**
 * Webhook chaos (docs/webhooks.md) and what a receiver answered (docs/webhooks.md, "Seeing the deliveries"): an endpoint's `chaos` settings
 * (JSON, NULL for none), and on each attempt the first KiB of the answer, masked, and which chaos
 * made it. Attempts from before this step have neither: NULL.
 */
export const migration060: Migration = {
  version: 60,
  up(db) {
    db.exec(`
      ALTER TABLE webhook_endpoints ADD COLUMN chaos TEXT;
      ALTER TABLE delivery_attempts ADD COLUMN response_body TEXT;
      ALTER TABLE delivery_attempts ADD COLUMN chaos TEXT;
    `);
  },
};

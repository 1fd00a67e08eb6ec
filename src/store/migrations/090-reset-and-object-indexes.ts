import type { Migration } from "./migration.js";

/**
 * Two indexes for reads that scanned:
 * - deliveries by company: a one-company sandbox reset finds that company's deliveries (to delete
 *   them, their attempts and their jobs) without reading every company's;
 * - events by object: the dashboard's payment intent and payout pages list one object's events
 *   without reading every event of the company.
 */
export const migration090: Migration = {
  version: 90,
  up(db) {
    db.exec(`
      CREATE INDEX deliveries_by_company ON deliveries (company_id);
      CREATE INDEX events_by_object ON events (company_id, object_id, seq);
    `);
  },
};

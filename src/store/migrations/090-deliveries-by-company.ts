import type { Migration } from "./migration.js";

/**
 * Indexes deliveries by company: a one-company sandbox reset finds that company's deliveries (to
 * delete them, their attempts and their jobs) without reading every company's. (Events by object,
 * for the dashboard's object pages, were left out on purpose: one more random-keyed entry per
 * event costs every creation, while a person's page view can afford the company's scan.)
 */
export const migration090: Migration = {
  version: 90,
  up(db) {
    db.exec("CREATE INDEX deliveries_by_company ON deliveries (company_id)");
  },
};

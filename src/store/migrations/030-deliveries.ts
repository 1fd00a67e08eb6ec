import type { Migration } from "./migration.js";

/** The webhook outbox: one delivery per event and endpoint, and each attempt made for it. */
export const migration030: Migration = {
  version: 30,
  up(db) {
    db.exec(`
      CREATE TABLE deliveries (
        seq             INTEGER PRIMARY KEY,
        id              TEXT NOT NULL UNIQUE,
        event_id        TEXT NOT NULL REFERENCES events(id),
        company_id      TEXT NOT NULL REFERENCES companies(id),
        endpoint_id     TEXT NOT NULL REFERENCES webhook_endpoints(id),
        url             TEXT NOT NULL,
        status          TEXT NOT NULL,
        attempt_count   INTEGER NOT NULL DEFAULT 0,
        next_attempt_ms INTEGER,
        created_at      TEXT NOT NULL,
        updated_at      TEXT NOT NULL
      );
      CREATE INDEX deliveries_by_event ON deliveries (event_id, seq);
      CREATE INDEX deliveries_by_endpoint ON deliveries (endpoint_id, status);

      -- An attempt is written before the request goes out (finished = 0) and
      -- completed after; one left unfinished was cut off by a crash.
      CREATE TABLE delivery_attempts (
        seq          INTEGER PRIMARY KEY,
        delivery_id  TEXT NOT NULL REFERENCES deliveries(id),
        attempted_at TEXT NOT NULL,
        status_code  INTEGER,
        error        TEXT,
        duration_ms  INTEGER,
        finished     INTEGER NOT NULL DEFAULT 0
      );
      CREATE INDEX delivery_attempts_by_delivery ON delivery_attempts (delivery_id, seq);
      CREATE INDEX delivery_attempts_unfinished ON delivery_attempts (finished) WHERE finished = 0;
    `);
  },
};

import type { Migration } from "./migration.js";

/** Companies and their hashed keys, payment intents, events, idempotency keys, webhook endpoints. */
export const migration010: Migration = {
  version: 10,
  up(db) {
    db.exec(`
      CREATE TABLE meta (
        key   TEXT PRIMARY KEY,
        value TEXT NOT NULL
      ) WITHOUT ROWID;

      CREATE TABLE companies (
        id         TEXT PRIMARY KEY,
        name       TEXT NOT NULL UNIQUE,
        currency   TEXT NOT NULL,
        is_default INTEGER NOT NULL DEFAULT 0,
        created_at TEXT NOT NULL
      );

      CREATE TABLE api_keys (
        key_hash   TEXT PRIMARY KEY,
        company_id TEXT NOT NULL REFERENCES companies(id),
        created_at TEXT NOT NULL
      ) WITHOUT ROWID;

      CREATE TABLE payment_intents (
        seq            INTEGER PRIMARY KEY,
        id             TEXT NOT NULL UNIQUE,
        company_id     TEXT NOT NULL REFERENCES companies(id),
        reference      TEXT NOT NULL,
        amount         INTEGER NOT NULL,
        currency       TEXT NOT NULL,
        description    TEXT,
        capture_method TEXT NOT NULL,
        state          TEXT NOT NULL,
        card_last4     TEXT,
        card_brand     TEXT,
        failure_reason TEXT,
        created_at     TEXT NOT NULL,
        updated_at     TEXT NOT NULL,
        UNIQUE (company_id, reference)
      );
      CREATE INDEX payment_intents_by_company ON payment_intents (company_id, seq);
      CREATE INDEX payment_intents_by_state ON payment_intents (company_id, state, seq);

      CREATE TABLE events (
        seq        INTEGER PRIMARY KEY,
        id         TEXT NOT NULL UNIQUE,
        company_id TEXT NOT NULL REFERENCES companies(id),
        type       TEXT NOT NULL,
        object_id  TEXT,
        request_id TEXT NOT NULL,
        created_at TEXT NOT NULL,
        body       TEXT NOT NULL
      );
      CREATE INDEX events_by_company ON events (company_id, seq);
      CREATE INDEX events_by_type ON events (company_id, type, seq);

      CREATE TABLE idempotency_keys (
        company_id  TEXT NOT NULL,
        method      TEXT NOT NULL,
        path        TEXT NOT NULL,
        key         TEXT NOT NULL,
        fingerprint TEXT NOT NULL,
        status      INTEGER NOT NULL,
        body        TEXT NOT NULL,
        created_ms  INTEGER NOT NULL,
        PRIMARY KEY (company_id, method, path, key)
      ) WITHOUT ROWID;

      CREATE TABLE webhook_endpoints (
        seq            INTEGER PRIMARY KEY,
        id             TEXT NOT NULL UNIQUE,
        company_id     TEXT NOT NULL REFERENCES companies(id),
        url            TEXT NOT NULL,
        secret         TEXT NOT NULL,
        enabled_events TEXT NOT NULL,
        created_at     TEXT NOT NULL,
        deleted_at     TEXT
      );
      CREATE INDEX webhook_endpoints_by_company ON webhook_endpoints (company_id, seq);
    `);
  },
};

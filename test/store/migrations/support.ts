import { MIGRATIONS, type Migration } from "../../../src/store/schema.js";
import { migrate, type Db } from "../../../src/store/open.js";
import { useDatabase, useTempPath } from "../../helpers/disposables.js";

/** The steps of MIGRATIONS up to and including `version`: what a paysim of that schema version knew. */
export function stepsThrough(version: number): readonly Migration[] {
  if (!MIGRATIONS.some((step) => step.version === version)) throw new Error(`no migration has version ${version}`);
  return MIGRATIONS.filter((step) => step.version <= version);
}

/** The version of the step just before `version` in MIGRATIONS. */
export function versionBefore(version: number): number {
  const at = MIGRATIONS.findIndex((step) => step.version === version);
  if (at < 1) throw new Error(`no migration comes before version ${version}`);
  return MIGRATIONS[at - 1]!.version;
}

export interface OldDatabase {
  db: Db;
  path: string;
  /** Applies the steps after the database's version up to `version` (one step when it is the next), as openDatabase would. */
  migrateTo(version: number): void;
}

/**
 * A real SQLite file, as a paysim of schema `version` left it: opened and migrated
 * with the steps up to `version` only. Closed and removed when the test finishes.
 *
 * @example
 * const old = databaseAt(versionBefore(30));
 * old.db.prepare("INSERT INTO companies …").run();
 * old.migrateTo(30);
 */
export function databaseAt(version: number): OldDatabase {
  const path = useTempPath();
  const db = useDatabase(path, stepsThrough(version));
  return { db, path, migrateTo: (target) => migrate(db, path, stepsThrough(target)) };
}

export const userVersion = (db: Db) => db.pragma("user_version", { simple: true }) as number;

export const tableNames = (db: Db) =>
  db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").pluck().all() as string[];

export interface Column {
  name: string;
  type: string;
  notnull: number;
  dflt_value: string | null;
  pk: number;
}

/** PRAGMA table_info, in column order. */
export const columns = (db: Db, table: string) =>
  (db.pragma(`table_info(${table})`) as (Column & { cid: number })[]).map(({ name, type, notnull, dflt_value, pk }) => ({
    name,
    type,
    notnull,
    dflt_value,
    pk,
  }));

export interface Index {
  name: string;
  unique: boolean;
  partial: boolean;
  columns: string[];
}

/** The table's indexes (its own and SQLite's automatic ones for UNIQUE), by name. */
export function indexes(db: Db, table: string): Index[] {
  const list = db.pragma(`index_list(${table})`) as { name: string; unique: number; partial: number }[];
  return list
    .map((index) => ({
      name: index.name,
      unique: index.unique === 1,
      partial: index.partial === 1,
      columns: (db.pragma(`index_info(${index.name})`) as { seqno: number; name: string }[]).sort((a, b) => a.seqno - b.seqno).map((c) => c.name),
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** PRAGMA foreign_key_list: which column points at which table's column. */
export const foreignKeys = (db: Db, table: string) =>
  (db.pragma(`foreign_key_list(${table})`) as { from: string; table: string; to: string }[])
    .map(({ from, table: target, to }) => ({ from, table: target, to }))
    .sort((a, b) => a.from.localeCompare(b.from));

/** Every row of every table (but SQLite's own), in a stable order (some tables have no rowid), for a before/after comparison. */
export function everyRow(db: Db): Record<string, unknown[]> {
  const sorted = (rows: unknown[]) =>
    rows
      .map((row) => [JSON.stringify(row), row] as const)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([, row]) => row);
  return Object.fromEntries(tableNames(db).map((table) => [table, sorted(db.prepare(`SELECT * FROM "${table}"`).all())]));
}

/** What the query planner says it does for `sql`. */
export const queryPlan = (db: Db, sql: string, ...params: unknown[]) =>
  (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((step) => step.detail).join("\n");

const CREATED_AT = "2026-05-01T12:00:00.000Z";

/**
 * Rows as paysim writes them into the tables of schema version 10 (a company, its
 * hashed key, a captured intent, its event, an idempotency record, an endpoint).
 * Answers the ids, for rows of later tables that point at them.
 */
export function seedVersion10(db: Db) {
  const ids = {
    company: "co_0123456789abcdefghijklmn",
    intent: "pi_0123456789abcdefghijklmn",
    event: "evt_0123456789abcdefghijklm",
    endpoint: "we_0123456789abcdefghijklmn",
  };
  db.prepare("INSERT INTO meta (key, value) VALUES ('clock', ?)").run(JSON.stringify({ offset_ms: 86_400_000, time_scale: 1 }));
  db.prepare("INSERT INTO companies (id, name, currency, is_default, created_at) VALUES (?, 'Acme', 'EUR', 1, ?)").run(ids.company, CREATED_AT);
  db.prepare("INSERT INTO api_keys (key_hash, company_id, created_at) VALUES (?, ?, ?)").run("9f".repeat(32), ids.company, CREATED_AT);
  db.prepare(
    `INSERT INTO payment_intents (id, company_id, reference, amount, currency, description, capture_method, state, card_last4, card_brand, created_at, updated_at)
     VALUES (?, ?, 'PAY-0001', 2500, 'EUR', 'Order #1042', 'automatic', 'captured', '4242', 'visa', ?, ?)`,
  ).run(ids.intent, ids.company, CREATED_AT, CREATED_AT);
  db.prepare(
    "INSERT INTO events (id, company_id, type, object_id, request_id, created_at, body) VALUES (?, ?, 'payment_intent.captured', ?, 'req_0123456789abcdefghijklmn', ?, ?)",
  ).run(
    ids.event,
    ids.company,
    ids.intent,
    CREATED_AT,
    JSON.stringify({ id: ids.event, object: "event", type: "payment_intent.captured", data: { id: ids.intent } }),
  );
  db.prepare(
    "INSERT INTO idempotency_keys (company_id, method, path, key, fingerprint, status, body, created_ms) VALUES (?, 'POST', '/v1/payment_intents', ?, ?, 201, ?, ?)",
  ).run(ids.company, "ab".repeat(32), "cd".repeat(32), JSON.stringify({ id: ids.intent }), Date.parse(CREATED_AT));
  db.prepare(
    "INSERT INTO webhook_endpoints (id, company_id, url, secret, enabled_events, created_at) VALUES (?, ?, 'http://127.0.0.1:3000/hooks', 'whsec_0123456789', '[\"*\"]', ?)",
  ).run(ids.endpoint, ids.company, CREATED_AT);
  return ids;
}

/**
 * A database of the version before `version`, seeded as version 10 and holding a succeeded
 * delivery with one finished attempt (as version 30 writes them), moved to `version`; with every
 * row from before the step, to compare.
 */
export function migratedWithAttempt(version: number): {
  db: Db;
  ids: ReturnType<typeof seedVersion10>;
  before: Record<string, unknown[]>;
  migrateTo: OldDatabase["migrateTo"];
} {
  const old = databaseAt(versionBefore(version));
  const ids = seedVersion10(old.db);
  old.db
    .prepare(
      "INSERT INTO deliveries (id, event_id, company_id, endpoint_id, url, status, attempt_count, created_at, updated_at) VALUES ('del_1', ?, ?, ?, 'http://127.0.0.1:3000/hooks', 'succeeded', 1, 'x', 'x')",
    )
    .run(ids.event, ids.company, ids.endpoint);
  old.db
    .prepare(
      "INSERT INTO delivery_attempts (delivery_id, attempted_at, status_code, duration_ms, finished) VALUES ('del_1', '2030-01-01T00:00:00.000Z', 200, 12, 1)",
    )
    .run();
  const before = everyRow(old.db);
  old.migrateTo(version);
  return { db: old.db, ids, before, migrateTo: old.migrateTo };
}

/** A payout and a job, as paysim writes them into the tables version 20 added. */
export function seedVersion20(db: Db, companyId: string) {
  const payout = "po_0123456789abcdefghijklmn";
  db.prepare(
    `INSERT INTO payouts (id, company_id, reference, amount, currency, status, destination_type, destination_token, destination_masked, description, created_at, updated_at)
     VALUES (?, ?, 'PO-0001', 5000, 'EUR', 'pending', 'card', 'tok_card_visa', '**** 4242', 'Weekly payout', ?, ?)`,
  ).run(payout, companyId, CREATED_AT, CREATED_AT);
  db.prepare("INSERT INTO jobs (kind, subject_id, due_ms, payload) VALUES ('payout.move', ?, ?, ?)").run(
    payout,
    Date.parse(CREATED_AT) + 2000,
    JSON.stringify({ to: "processing" }),
  );
  return { payout };
}

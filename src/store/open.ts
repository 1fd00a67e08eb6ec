import { Database } from "./sqlite-driver.js";
import type { Db } from "./db.js";
import { chmodSync, existsSync, rmSync } from "node:fs";
import { notPaysim, PAYSIM_APPLICATION_ID, prepareDatabaseFile, PRIVATE_MODE } from "./database-file.js";
import { DatabaseInUseError, NewerDatabaseError, UnusableDatabaseError } from "./errors.js";
import { MIGRATIONS, type Migration } from "./schema.js";

export type { Db } from "./db.js";

/** The tables of the first migration: a SQLite file with all of them (and a schema version) is a paysim database from before the marker. */
const PAYSIM_TABLES = ["api_keys", "companies", "events", "idempotency_keys", "meta", "payment_intents", "webhook_endpoints"];

export interface OpenOptions {
  /**
   * Called with an existing database's meta rows (key → value) before anything in the file
   * changes; throwing refuses the database, which is then closed as it was.
   */
  checkStoredMeta?: (meta: ReadonlyMap<string, string>) => void;
  /** For ":memory:" only: the bytes of a SQLite file (a snapshot) the in-memory database starts as. */
  initialContent?: Buffer;
}

/**
 * Opens (creating when absent) the database at `path`, or an in-memory one for
 * ":memory:", with WAL and the pragmas paysim relies on, and migrates it.
 * A path is checked before anything there changes: only a missing file or a paysim
 * database is used; anything else is refused with UnusableDatabaseError, untouched.
 * A file is locked for this connection alone until it closes: a second paysim
 * on it is refused with DatabaseInUseError.
 */
export function openDatabase(path: string, migrations: readonly Migration[] = MIGRATIONS, options: OpenOptions = {}): Db {
  const inMemory = path === ":memory:";
  const state = inMemory ? "memory" : prepareDatabaseFile(path);
  let db: Db | undefined;
  try {
    // No busy wait while taking the lock: a database in use is refused at once, not after 5 s.
    db = inMemory
      ? new Database(options.initialContent ?? migratedTemplate(migrations), { timeout: 0 })
      : new Database(path, { timeout: 0, fileMustExist: true });
    if (!inMemory) lockExclusively(db, path);
    // Judge the file, then refuse a database from a newer paysim, or one its owner's checks
    // refuse, all before changing anything in it, even its journal mode.
    if (state === "existing") requirePaysimDatabase(db, path, migrations);
    refuseNewer(db, path, migrations);
    if (options.checkStoredMeta && hasTable(db, "meta")) options.checkStoredMeta(readMeta(db));
    if (state === "existing") chmodSync(path, PRIVATE_MODE);
    // A new file gets the marker while still in rollback mode: straight into its header, readable before any checkpoint.
    if (state === "created") db.pragma(`application_id = ${PAYSIM_APPLICATION_ID}`);
    configure(db, inMemory);
    migrate(db, path, migrations);
    if (!inMemory) {
      for (const suffix of ["-wal", "-shm"]) if (existsSync(path + suffix)) chmodSync(path + suffix, PRIVATE_MODE);
    }
    return db;
  } catch (error) {
    db?.close();
    // A file this call created holds nothing worth keeping: leave no half-made database behind.
    if (state === "created" && !(error instanceof DatabaseInUseError)) for (const suffix of ["", "-wal", "-shm"]) rmSync(path + suffix, { force: true });
    throw error;
  }
}

/** The journal and the pragmas paysim relies on, set on every connection before it migrates. */
function configure(db: Db, inMemory: boolean): void {
  if (!inMemory) {
    db.pragma("journal_mode = WAL");
    // Checkpoints (copying the WAL into the database file, with an fsync) ran every 1,000 pages,
    // which under load meant every few group commits and about half of a create's cost. At
    // 8,192 pages (32 MiB) they run an eighth as often; the WAL file is cut back to that size.
    db.pragma("wal_autocheckpoint = 8192");
    db.pragma(`journal_size_limit = ${32 * 1024 * 1024}`);
  }
  db.pragma("synchronous = NORMAL");
  // Each group-commit unit runs in a savepoint, whose journal (the original of every page the
  // unit changes) SQLite otherwise spills to a temporary file: a pwrite per page, about half of
  // a creation's insert time. A unit's journal is a few pages and is freed when it is released.
  db.pragma("temp_store = MEMORY");
  db.pragma("foreign_keys = ON");
  db.pragma("busy_timeout = 5000");
}

/** Each list of migrations' new database, migrated, as bytes (see migratedTemplate). */
const migratedTemplates = new WeakMap<readonly Migration[], Buffer>();

/**
 * The bytes of a new database once `migrations` have run, made once per process: a new in-memory
 * database (startPaysim(), each instance of POST /v1/sandbox/instances) starts as a copy of them
 * instead of running every migration again, which was the largest part of starting one
 * (docs/performance.md, "Pay only for what is used").
 */
function migratedTemplate(migrations: readonly Migration[]): Buffer {
  let bytes = migratedTemplates.get(migrations);
  if (!bytes) {
    const db = new Database(":memory:");
    try {
      configure(db, true);
      migrate(db, ":memory:", migrations);
      bytes = db.serialize();
    } finally {
      db.close();
    }
    migratedTemplates.set(migrations, bytes);
  }
  return bytes;
}

/**
 * Refuses, by reads alone, a file that is not a paysim database: one marked with another
 * application's id, or an unmarked one without paysim's tables (a paysim database from before
 * the marker has them, and a schema version). A schema newer than this paysim knows is left to
 * refuseNewer: its tables cannot be judged.
 */
function requirePaysimDatabase(db: Db, path: string, migrations: readonly Migration[]): void {
  const applicationId = db.pragma("application_id", { simple: true }) as number;
  if (applicationId === PAYSIM_APPLICATION_ID) return;
  if (applicationId !== 0) throw notPaysim(path, `is the SQLite database of another application (application_id 0x${(applicationId >>> 0).toString(16)})`);
  const version = db.pragma("user_version", { simple: true }) as number;
  if (version > (migrations.at(-1)?.version ?? 0)) return;
  const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[];
  const missing = PAYSIM_TABLES.filter((table) => !tables.includes(table));
  if (version === 0 || missing.length > 0) {
    throw notPaysim(path, `is a SQLite database without paysim's tables (${tables.length === 0 ? "it has none" : `it has ${tables.sort().join(", ")}`})`);
  }
}

function hasTable(db: Db, name: string): boolean {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !== undefined;
}

function readMeta(db: Db): Map<string, string> {
  const rows = db.prepare("SELECT key, value FROM meta").all() as { key: string; value: string }[];
  return new Map(rows.map((row) => [row.key, row.value]));
}

/**
 * Takes the database file's lock and keeps it until close (locking_mode EXCLUSIVE,
 * which with WAL also keeps the wal-index in memory: no -shm file). Two paysims on
 * one file would both run the scheduler and deliver every webhook twice. The
 * empty exclusive transaction takes the lock now, before anything else reads or
 * writes, and changes no byte of an existing database.
 */
function lockExclusively(db: Db, path: string): void {
  db.pragma("locking_mode = EXCLUSIVE");
  try {
    db.exec("BEGIN EXCLUSIVE; COMMIT");
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (typeof code === "string" && (code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED"))) throw new DatabaseInUseError(path);
    if (code === "SQLITE_NOTADB") throw notPaysim(path, "is not a SQLite database");
    if (typeof code === "string") {
      throw new UnusableDatabaseError(
        path,
        `The database ${path} cannot be read (${(error as Error).message}); paysim leaves it as it is. Choose another --db.`,
      );
    }
    throw error;
  }
}

/** Throws NewerDatabaseError when the database's schema is newer than `migrations` know; answers its version. */
function refuseNewer(db: Db, path: string, migrations: readonly Migration[]): number {
  const current = db.pragma("user_version", { simple: true }) as number;
  const latest = migrations.at(-1)?.version ?? 0;
  if (current > latest) throw new NewerDatabaseError(path, current, latest);
  return current;
}

/** Applies every pending step in one transaction, marking the file as paysim's; refuses a database from a newer paysim. */
export function migrate(db: Db, path: string, migrations: readonly Migration[]): void {
  const current = refuseNewer(db, path, migrations);
  const pending = migrations.filter((m) => m.version > current);
  const marked = db.pragma("application_id", { simple: true }) === PAYSIM_APPLICATION_ID;
  if (pending.length === 0 && marked) return;
  db.transaction(() => {
    if (!marked) db.pragma(`application_id = ${PAYSIM_APPLICATION_ID}`);
    for (const step of pending) {
      step.up(db);
      db.pragma(`user_version = ${step.version}`);
    }
  }).immediate();
}

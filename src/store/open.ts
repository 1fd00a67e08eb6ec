import Database from "better-sqlite3";
import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from "node:fs";
import { dirname } from "node:path";
import { MIGRATIONS, type Migration } from "./migrations/index.js";

export type Db = Database.Database;

/** Files that hold keys or secrets are readable by their owner only (SPEC §3). */
const PRIVATE_MODE = 0o600;

export class NewerDatabaseError extends Error {
  constructor(path: string, found: number, known: number) {
    super(
      `The database ${path} has schema version ${found}, newer than this paysim understands (${known}). ` +
        `Upgrade paysim, or start with another --db.`,
    );
    this.name = "NewerDatabaseError";
  }
}

/** Another process (or another connection in this one) holds the database's lock. */
export class DatabaseInUseError extends Error {
  constructor(path: string) {
    super(
      `The database ${path} is in use by another paysim (another process holds its lock). ` +
        `Stop that one first, or start with another --db.`,
    );
    this.name = "DatabaseInUseError";
  }
}

/**
 * Opens (creating when absent) the database at `path`, or an in-memory one for
 * ":memory:", with WAL and the pragmas paysim relies on, and migrates it.
 * A file is locked for this connection alone until it closes: a second paysim
 * on it is refused with DatabaseInUseError.
 */
export function openDatabase(path: string, migrations: readonly Migration[] = MIGRATIONS): Db {
  const inMemory = path === ":memory:";
  if (!inMemory) {
    mkdirSync(dirname(path), { recursive: true });
    // Create the file with its private mode before SQLite does: SQLite gives the
    // -wal and -shm files the mode of the database file.
    if (!existsSync(path)) closeSync(openSync(path, "a", PRIVATE_MODE));
    chmodSync(path, PRIVATE_MODE);
  }
  // No busy wait while taking the lock: a database in use is refused at once, not after 5 s.
  const db = new Database(path, { timeout: 0 });
  try {
    if (!inMemory) lockExclusively(db, path);
    // Refuse a database from a newer paysim before changing anything in it, even its journal mode.
    refuseNewer(db, path, migrations);
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
    migrate(db, path, migrations);
    if (!inMemory) {
      for (const suffix of ["-wal", "-shm"]) if (existsSync(path + suffix)) chmodSync(path + suffix, PRIVATE_MODE);
    }
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
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

/** Applies every pending step in one transaction; refuses a database from a newer paysim. */
export function migrate(db: Db, path: string, migrations: readonly Migration[]): void {
  const current = refuseNewer(db, path, migrations);
  const pending = migrations.filter((m) => m.version > current);
  if (pending.length === 0) return;
  db.transaction(() => {
    for (const step of pending) {
      step.up(db);
      db.pragma(`user_version = ${step.version}`);
    }
  }).immediate();
}

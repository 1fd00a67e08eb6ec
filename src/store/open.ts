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

/**
 * Opens (creating when absent) the database at `path`, or an in-memory one for
 * ":memory:", with WAL and the pragmas paysim relies on, and migrates it.
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
  const db = new Database(path);
  try {
    // Refuse a database from a newer paysim before changing anything in it, even its journal mode.
    refuseNewer(db, path, migrations);
    if (!inMemory) db.pragma("journal_mode = WAL");
    db.pragma("synchronous = NORMAL");
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

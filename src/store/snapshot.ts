import { Database } from "./sqlite-driver.js";
import { randomUUID } from "node:crypto";
import { lstatSync, mkdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { open, rename, rm } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { PAYSIM_APPLICATION_ID, prepareDatabaseFile, PRIVATE_MODE } from "./database-file.js";
import { SnapshotError, UnusableDatabaseError } from "./errors.js";
import type { Migration } from "./migrations/index.js";
import { openDatabase, type Db, type OpenOptions } from "./open.js";

/**
 * The database's whole committed state as the bytes of a SQLite file, in rollback-journal mode.
 * The open group commit is committed first, so the copy holds every write that was answered and
 * no half of one. Taken in one synchronous call: no request can change the state while it is
 * copied, and the slow part, writing the file, happens while requests are served again.
 * (SQLite's online backup was the other way; its steps find the group commit's transaction open
 * under load, give way every time, and may never finish.)
 */
export function serializeCommitted(db: Db, flush: () => void): Buffer {
  flush();
  if (db.inTransaction) throw new Error("a transaction is still open; a snapshot is taken between transactions");
  const bytes = db.serialize();
  markRollbackJournal(bytes);
  return bytes;
}

/**
 * The header bytes 18 and 19 say the file is in WAL mode when they are 2. A snapshot is one
 * self-contained file, so it says rollback journal (1): SQLite then needs no -wal file beside it,
 * and an in-memory database can be made from its bytes (SQLite refuses to deserialize WAL mode).
 */
function markRollbackJournal(bytes: Buffer): void {
  if (bytes.length >= 20) {
    bytes[18] = 1;
    bytes[19] = 1;
  }
}

/**
 * Writes `bytes` to `path` as a private (0600) file, atomically: into a temporary file in the
 * same folder, flushed to disk, then renamed over `path`. `path` never holds half a file; on any
 * failure the temporary file is removed and SnapshotError names `path`.
 */
export async function writeFileAtomically(path: string, bytes: Uint8Array): Promise<void> {
  const temporary = join(dirname(path), `.${basename(path)}.${randomUUID()}.tmp`);
  try {
    const handle = await open(temporary, "wx", PRIVATE_MODE);
    try {
      await handle.chmod(PRIVATE_MODE); // whatever the umask
      await handle.writeFile(bytes);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true }).catch(() => {});
    throw new SnapshotError(path, error);
  }
}

/** The first 16 bytes of every SQLite database file. */
const SQLITE_HEADER = Buffer.from("SQLite format 3\0", "latin1");

/**
 * Reads a snapshot file and answers its bytes. The file is read as plain bytes and judged from a
 * copy in memory: SQLite never opens it, so no byte of it changes, no lock is taken and no -wal or
 * -shm file appears beside it. Refuses, naming the file, anything that is not a paysim snapshot
 * (not a SQLite file, or one without paysim's mark), one whose -wal file still holds writes (a
 * database in use or not closed cleanly: its bytes alone are not the whole state), and one from a
 * newer paysim.
 */
export function readSnapshot(path: string, migrations: readonly Migration[]): Buffer {
  let bytes: Buffer;
  try {
    if (!lstatSync(path).isFile()) throw new Error("it is not a regular file");
    bytes = readFileSync(path);
  } catch (error) {
    throw new UnusableDatabaseError(path, `Cannot read the snapshot ${path}: ${(error as Error).message}. Pass the path of a file written by a paysim snapshot.`);
  }
  if (bytes.length < 100 || !bytes.subarray(0, SQLITE_HEADER.length).equals(SQLITE_HEADER)) throw notSnapshot(path, "is not a SQLite database");
  if (nonEmptyFile(`${path}-wal`)) {
    throw new UnusableDatabaseError(path, `The file ${path} has writes in ${path}-wal beside it (a database in use, or not closed cleanly), so the file alone is not a snapshot. Stop the paysim using it, or pass a file written by a paysim snapshot.`);
  }
  markRollbackJournal(bytes);
  let db: Db | undefined;
  try {
    db = new Database(bytes, { readonly: true });
    const applicationId = db.pragma("application_id", { simple: true }) as number;
    if (applicationId !== PAYSIM_APPLICATION_ID) throw notSnapshot(path, applicationId === 0 ? "has no paysim mark" : `is the database of another application (application_id 0x${(applicationId >>> 0).toString(16)})`);
    const version = db.pragma("user_version", { simple: true }) as number;
    const latest = migrations.at(-1)?.version ?? 0;
    if (version > latest) {
      throw new UnusableDatabaseError(path, `The snapshot ${path} comes from a newer paysim (schema version ${version}; this paysim understands up to ${latest}). Upgrade paysim to import it.`);
    }
    return bytes;
  } catch (error) {
    if (error instanceof UnusableDatabaseError) throw error;
    const code = (error as { code?: unknown }).code;
    if (code === "SQLITE_NOTADB" || code === "SQLITE_CORRUPT") throw notSnapshot(path, "is not a readable SQLite database");
    throw new UnusableDatabaseError(path, `Cannot read the snapshot ${path}: ${(error as Error).message}.`);
  } finally {
    db?.close();
  }
}

function nonEmptyFile(path: string): boolean {
  try {
    return statSync(path).size > 0;
  } catch {
    return false;
  }
}

function notSnapshot(path: string, what: string): UnusableDatabaseError {
  return new UnusableDatabaseError(path, `The file ${path} ${what}, so it is not a paysim snapshot; paysim leaves it as it is. Pass a file written by a paysim snapshot.`);
}

/**
 * Opens the database at `dbPath` (or an in-memory one for ":memory:") holding a copy of the
 * snapshot at `snapshotPath`, which is only read. A file `dbPath` that already holds data is
 * refused, untouched: an import never overwrites anything. A file this call wrote is removed
 * again when the database it holds is then refused.
 */
export async function openFromSnapshot(snapshotPath: string, dbPath: string, migrations: readonly Migration[], options: OpenOptions = {}): Promise<Db> {
  const bytes = readSnapshot(snapshotPath, migrations);
  if (dbPath === ":memory:") return openDatabase(dbPath, migrations, { ...options, initialContent: bytes });
  refuseHoldingData(dbPath);
  mkdirSync(dirname(dbPath), { recursive: true, mode: 0o700 });
  await writeFileAtomically(dbPath, bytes).catch((error: unknown) => {
    throw new UnusableDatabaseError(dbPath, `Cannot copy the snapshot ${snapshotPath} to ${dbPath}: ${(error as Error).message}. Choose another --db.`);
  });
  try {
    return openDatabase(dbPath, migrations, options);
  } catch (error) {
    for (const suffix of ["", "-wal", "-shm", "-journal"]) rmSync(dbPath + suffix, { force: true });
    throw error;
  }
}

/** Refuses any `path` but a missing or empty regular file: what is there would be replaced. */
function refuseHoldingData(path: string): void {
  if (nonEmptyFile(`${path}-wal`)) {
    throw new UnusableDatabaseError(path, `The database ${path} already holds data (in ${path}-wal); remove it or choose another --db to import a snapshot into.`);
  }
  let stats;
  try {
    stats = lstatSync(path);
  } catch {
    return; // missing: the import makes it
  }
  if (stats.isFile() && stats.size > 0) {
    throw new UnusableDatabaseError(path, `The database ${path} already holds data; remove it or choose another --db to import a snapshot into.`);
  }
  if (!stats.isFile() || stats.isSymbolicLink()) prepareDatabaseFile(path); // throws its own refusal (a folder, a link, …)
  rmSync(path); // an empty file: replaced by the copy
}

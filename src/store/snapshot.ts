import { Database } from "./sqlite-driver.js";
import { closeSync, existsSync, lstatSync, mkdirSync, openSync, readFileSync, readSync, rmSync, statSync } from "node:fs";
import { rename, rm } from "node:fs/promises";
import { dirname } from "node:path";
import { OwnedFileError, temporaryBeside, writeOwnedFile, writeTemporary, type FileKind, type KeptFile } from "../shared/owned-file.js";
import { PAYSIM_APPLICATION_ID, prepareDatabaseFile } from "./database-file.js";
import { SnapshotError, UnusableDatabaseError } from "./errors.js";
import type { Migration } from "./schema.js";
import { migrate, openDatabase, type Db, type OpenOptions } from "./open.js";
import { maskCardNumbersIn, requireSchemaOf } from "./snapshot-content.js";
import { checkSnapshotRows, type SnapshotRules } from "./snapshot-rows.js";

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
 * failure, and when `signal` aborts the write, the temporary file is removed before the promise
 * rejects, and SnapshotError names `path`.
 */
export async function writeFileAtomically(path: string, bytes: Uint8Array, signal?: AbortSignal): Promise<void> {
  const temporary = temporaryBeside(path);
  try {
    await writeTemporary(temporary, bytes, true, signal);
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true }).catch(() => {});
    throw new SnapshotError(path, signal?.aborted ? new Error("the export was interrupted; nothing was written") : error);
  }
}

/**
 * A snapshot, as the files paysim writes know it (shared/owned-file.ts): a file paysim may replace
 * is an earlier snapshot that no paysim has open. Anything else, above all the database of a
 * running paysim (renaming over it would leave that paysim writing into a deleted file) or a file
 * of the user's, is refused, saying why.
 */
export const SNAPSHOT_FILE: FileKind = {
  name: "snapshot",
  private: true,
  notOurs(path) {
    // SQLite tells whether another connection (of this process or another) holds the file's lock,
    // without closing a descriptor that would drop this process's own locks on it. Only then is it
    // read as plain bytes.
    const walHasWrites = nonEmptyFile(`${path}-wal`);
    if (lockHeld(path, walHasWrites))
      return "is the database of a running paysim (another connection holds its lock), and replacing it would destroy that paysim's data";
    if (walHasWrites) return `is a database that did not stop cleanly (its latest writes are in ${path}-wal), and replacing it would destroy them`;
    const header = readHeader(path);
    if (!isSqlite(header)) return "is not a paysim snapshot (not a SQLite file), and paysim replaces only an earlier snapshot";
    if (header.readInt32BE(APPLICATION_ID_OFFSET) !== PAYSIM_APPLICATION_ID)
      return "is not a paysim snapshot (a SQLite file without paysim's mark), and paysim replaces only an earlier snapshot";
    if (header[18] !== 1 || header[19] !== 1) return "is a paysim database (in WAL mode), not a snapshot, and replacing it would destroy its data";
    return undefined;
  },
};

/**
 * Writes a snapshot to `path` through the writer of every file paysim writes (shared/owned-file.ts):
 * missing, an empty file or an earlier snapshot (SNAPSHOT_FILE), never one of `kept`; written
 * to a temporary file and put in place. A refusal or a failed write is a SnapshotError saying why;
 * `bytes` is only taken once the target passed.
 */
export async function exportSnapshot(path: string, bytes: () => Uint8Array, kept: readonly KeptFile[], signal?: AbortSignal): Promise<void> {
  try {
    await writeOwnedFile(path, SNAPSHOT_FILE, bytes, kept, signal);
  } catch (error) {
    throw new SnapshotError(path, error instanceof OwnedFileError ? new Error(error.reason) : error);
  }
}

/**
 * Whether another connection holds the lock of the SQLite file at `path` (the exclusive lock every
 * paysim keeps on its database), found without changing a byte of it. With writes in its -wal, a
 * read-only connection asks: it gives up at once when the lock is held and, when not, reads
 * without checkpointing; the -shm file it may make is removed again (paysim never uses one).
 * Without, an exclusive one, as a paysim's own open does: it finds nothing to checkpoint.
 */
function lockHeld(path: string, walHasWrites: boolean): boolean {
  const shm = `${path}-shm`;
  const shmBefore = existsSync(shm);
  let db: Db | undefined;
  try {
    db = new Database(path, { fileMustExist: true, timeout: 0, readonly: walHasWrites });
    if (walHasWrites) {
      db.pragma("schema_version");
    } else {
      db.pragma("locking_mode = EXCLUSIVE");
      db.exec("BEGIN EXCLUSIVE; COMMIT");
    }
    return false;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    return typeof code === "string" && (code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED"));
  } finally {
    db?.close();
    if (!shmBefore) rmSync(shm, { force: true });
  }
}

/** The first 16 bytes of every SQLite database file. */
const SQLITE_HEADER = Buffer.from("SQLite format 3\0", "latin1");
/** Where the SQLite header keeps `PRAGMA user_version` and `PRAGMA application_id` (4 bytes each, big-endian). */
const USER_VERSION_OFFSET = 60;
const APPLICATION_ID_OFFSET = 68;
const HEADER_SIZE = 100;

/** The first 100 bytes of the file at `path` (fewer when it is shorter), read through one file handle. */
function readHeader(path: string): Buffer {
  const fd = openSync(path, "r");
  try {
    const header = Buffer.alloc(HEADER_SIZE);
    return header.subarray(0, readSync(fd, header, 0, HEADER_SIZE, 0));
  } finally {
    closeSync(fd);
  }
}

const isSqlite = (header: Buffer) => header.length === HEADER_SIZE && header.subarray(0, SQLITE_HEADER.length).equals(SQLITE_HEADER);

/**
 * Reads a snapshot file and answers the bytes of the database to start from. The file is judged
 * from a copy in memory: SQLite never opens it, so no byte of it changes, no lock is taken and no
 * -wal or -shm file appears beside it. Its 100-byte header is read first, so a file that is not
 * a paysim snapshot is refused without reading the rest. Refuses, naming the file and why:
 * anything that is not a paysim snapshot (not a SQLite file, one without paysim's mark, one whose
 * schema is not exactly the one paysim's migrations make for its version: no trigger, view,
 * index or table of its own, none missing), one whose -wal file still holds writes (a database
 * in use or not closed cleanly: its bytes alone are not the whole state), one from a newer paysim,
 * and one holding what cannot be masked. Every card number in it is masked in the copy. The
 * copy is then migrated to the current schema and every value of it is checked against `rules` (docs/guarantees.md, "An import keeps only what paysim could have written"): the
 * first value paysim could not have written refuses the snapshot, naming its table, row and column.
 */
export function readSnapshot(path: string, migrations: readonly Migration[], rules: SnapshotRules): Buffer {
  let header: Buffer;
  try {
    if (!lstatSync(path).isFile()) throw new Error("it is not a regular file");
    header = readHeader(path);
  } catch (error) {
    throw cannotRead(path, error);
  }
  if (!isSqlite(header)) throw notSnapshot(path, "is not a SQLite database");
  const applicationId = header.readInt32BE(APPLICATION_ID_OFFSET);
  if (applicationId !== PAYSIM_APPLICATION_ID)
    throw notSnapshot(
      path,
      applicationId === 0 ? "has no paysim mark" : `is the database of another application (application_id 0x${(applicationId >>> 0).toString(16)})`,
    );
  const version = header.readInt32BE(USER_VERSION_OFFSET);
  const latest = migrations.at(-1)?.version ?? 0;
  if (version > latest) {
    throw new UnusableDatabaseError(
      path,
      `The snapshot ${path} comes from a newer paysim (schema version ${version}; this paysim understands up to ${latest}). Upgrade paysim to import it.`,
    );
  }
  if (nonEmptyFile(`${path}-wal`)) {
    throw new UnusableDatabaseError(
      path,
      `The file ${path} has writes in ${path}-wal beside it (a database in use, or not closed cleanly), so the file alone is not a snapshot. Stop the paysim using it, or pass a file written by a paysim snapshot.`,
    );
  }
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    throw cannotRead(path, error);
  }
  markRollbackJournal(bytes);
  let db: Db | undefined;
  try {
    db = new Database(bytes);
    // What the header said must be what SQLite reads (the file may have changed since).
    if (db.pragma("application_id", { simple: true }) !== PAYSIM_APPLICATION_ID || db.pragma("user_version", { simple: true }) !== version)
      throw notSnapshot(path, "changed while it was read");
    requireSchemaOf(db, path, version, migrations);
    const check = db.pragma("quick_check", { simple: true }) as string;
    if (check !== "ok") throw notSnapshot(path, `is damaged (SQLite's check says: ${check})`);
    let changed = maskCardNumbersIn(db, path) > 0;
    // Checked at the schema the rows will be used with: a column an older snapshot lacks gets its default.
    if (version < latest) {
      migrate(db, path, migrations);
      changed = true;
    }
    checkSnapshotRows(db, path, rules);
    if (!changed) return bytes;
    const copy = db.serialize();
    markRollbackJournal(copy);
    return copy;
  } catch (error) {
    if (error instanceof UnusableDatabaseError) throw error;
    const code = (error as { code?: unknown }).code;
    if (code === "SQLITE_NOTADB" || (typeof code === "string" && code.startsWith("SQLITE_CORRUPT")))
      throw notSnapshot(path, "is not a readable SQLite database");
    throw new UnusableDatabaseError(path, `Cannot read the snapshot ${path}: ${(error as Error).message}.`);
  } finally {
    db?.close();
  }
}

function cannotRead(path: string, error: unknown): UnusableDatabaseError {
  return new UnusableDatabaseError(
    path,
    `Cannot read the snapshot ${path}: ${(error as Error).message}. Pass the path of a file written by a paysim snapshot.`,
  );
}

function nonEmptyFile(path: string): boolean {
  try {
    return statSync(path).size > 0;
  } catch {
    return false;
  }
}

function notSnapshot(path: string, what: string): UnusableDatabaseError {
  return new UnusableDatabaseError(
    path,
    `The file ${path} ${what}, so it is not a paysim snapshot; paysim leaves it as it is. Pass a file written by a paysim snapshot.`,
  );
}

/** Removes the database file at `path` and the files SQLite keeps beside it. */
export function removeDatabaseFiles(path: string): void {
  for (const suffix of ["", "-wal", "-shm", "-journal"]) rmSync(path + suffix, { force: true });
}

/**
 * Opens the database at `dbPath` (or an in-memory one for ":memory:") holding a copy of the
 * snapshot at `snapshotPath`, which is only read, once every value of it passed `rules` (see
 * readSnapshot). A file `dbPath` that already holds data is refused, untouched: an import never
 * overwrites anything. A file this call wrote is removed again when the database it holds is then
 * refused.
 */
export async function openFromSnapshot(
  snapshotPath: string,
  dbPath: string,
  migrations: readonly Migration[],
  rules: SnapshotRules,
  options: OpenOptions = {},
): Promise<Db> {
  const bytes = readSnapshot(snapshotPath, migrations, rules);
  if (dbPath === ":memory:") return openDatabase(dbPath, migrations, { ...options, initialContent: bytes });
  refuseHoldingData(dbPath);
  mkdirSync(dirname(dbPath), { recursive: true, mode: 0o700 });
  await writeFileAtomically(dbPath, bytes).catch((error: unknown) => {
    throw new UnusableDatabaseError(dbPath, `Cannot copy the snapshot ${snapshotPath} to ${dbPath}: ${(error as Error).message}. Choose another --db.`);
  });
  try {
    return openDatabase(dbPath, migrations, options);
  } catch (error) {
    removeDatabaseFiles(dbPath);
    throw error;
  }
}

/** Refuses any `path` but a missing or empty regular file: what is there would be replaced. */
function refuseHoldingData(path: string): void {
  if (nonEmptyFile(`${path}-wal`)) {
    throw new UnusableDatabaseError(
      path,
      `The database ${path} already holds data (in ${path}-wal); remove it or choose another --db to import a snapshot into.`,
    );
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

import { accessSync, chmodSync, closeSync, constants, lstatSync, mkdirSync, openSync, readlinkSync, type Stats } from "node:fs";
import { dirname, join } from "node:path";
import { UnusableDatabaseError } from "./errors.js";

/**
 * The `PRAGMA application_id` of every paysim database ("PSIM" in ASCII), kept in the file's
 * header: how paysim recognises its own databases.
 */
export const PAYSIM_APPLICATION_ID = 0x5053494d;

/** Files that hold keys or secrets are readable by their owner only (docs/api.md). */
export const PRIVATE_MODE = 0o600;
const PRIVATE_FOLDER_MODE = 0o700;

/**
 * What was at a database path, found before anything there changed: `created` (nothing; now a
 * new empty file with mode 0600, its folder made 0700 when missing) or `existing` (a writable,
 * non-empty regular file of ours, whose content SQLite must judge).
 */
export type DatabaseFileState = "created" | "existing";

/**
 * Checks what is at `path` from its metadata alone (no link followed, no byte read, nothing
 * changed) and refuses with UnusableDatabaseError, naming the path and what to do, anything but
 * a missing file or a writable, non-empty regular file. Creates the file when it is missing.
 *
 * The file is never opened here: closing any descriptor of a file drops every POSIX lock this
 * process holds on it, which would silently release the lock of a paysim already running on it
 * in this process. Its content is judged by SQLite, which keeps those locks.
 */
export function prepareDatabaseFile(path: string): DatabaseFileState {
  let stats: Stats;
  try {
    stats = lstatSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw cannotUse(path, error);
    createPrivateFile(path);
    return "created";
  }
  refuseUnlessOwnWritableFile(path, stats);
  if (stats.size === 0) {
    throw new UnusableDatabaseError(
      path,
      `The database ${path} is an empty file (0 bytes), not a paysim database. Delete it (paysim then creates a new database there), or choose another --db.`,
    );
  }
  return "existing";
}

/** The refusal of a SQLite file that is not paysim's (`what` completes "The file … "). */
export function notPaysim(path: string, what: string): UnusableDatabaseError {
  return new UnusableDatabaseError(path, `The file ${path} ${what}, so it is not a paysim database; paysim leaves it as it is. Choose another --db.`);
}

function createPrivateFile(path: string): void {
  try {
    mkdirSync(dirname(path), { recursive: true, mode: PRIVATE_FOLDER_MODE });
    // Created with its private mode before SQLite opens it: SQLite gives the -wal file the database file's mode.
    closeSync(openSync(path, "wx", PRIVATE_MODE));
    chmodSync(path, PRIVATE_MODE); // whatever the umask
  } catch (error) {
    throw cannotUse(path, error);
  }
}

function refuseUnlessOwnWritableFile(path: string, stats: Stats): void {
  if (stats.isSymbolicLink()) {
    // A link is refused rather than followed: paysim changes the mode of its database and writes
    // files beside it, which must never happen to a file elsewhere that the link happens to name.
    throw new UnusableDatabaseError(
      path,
      `The database path ${path} is a symbolic link (to ${readlinkSync(path)}); paysim does not follow links to its database. Pass the file's own path with --db.`,
    );
  }
  if (stats.isDirectory()) {
    throw new UnusableDatabaseError(path, `The database path ${path} is a folder, not a file. Pass a file path with --db, e.g. ${join(path, "paysim.db")}.`);
  }
  if (!stats.isFile()) {
    throw new UnusableDatabaseError(path, `The database path ${path} is not a regular file (a device, pipe or socket). Pass a file path with --db.`);
  }
  const uid = process.getuid?.();
  if (uid !== undefined && uid !== 0 && stats.uid !== uid) {
    throw new UnusableDatabaseError(
      path,
      `The database ${path} belongs to another user (uid ${stats.uid}); paysim keeps its database readable by its owner only. Run paysim as that user, or choose another --db.`,
    );
  }
  if ((stats.mode & 0o200) === 0 || !canAccess(path, constants.R_OK | constants.W_OK)) {
    throw new UnusableDatabaseError(
      path,
      `The database ${path} is read-only (mode ${(stats.mode & 0o777).toString(8).padStart(4, "0")}); paysim writes to its database and does not change a file's permissions. ` +
        `Make it writable (chmod u+w ${path}), or choose another --db.`,
    );
  }
  if (!canAccess(dirname(path), constants.W_OK)) {
    throw new UnusableDatabaseError(
      path,
      `The folder of the database ${path} is not writable; SQLite writes its log beside the database. Choose another --db.`,
    );
  }
}

function canAccess(path: string, mode: number): boolean {
  try {
    accessSync(path, mode);
    return true;
  } catch {
    return false;
  }
}

function cannotUse(path: string, error: unknown): UnusableDatabaseError {
  return new UnusableDatabaseError(path, `Cannot use ${path} as the database: ${(error as Error).message}. Choose another --db.`);
}

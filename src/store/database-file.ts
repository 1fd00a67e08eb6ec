import { accessSync, chmodSync, closeSync, constants, lstatSync, mkdirSync, openSync, readlinkSync, readSync, statSync, type Stats } from "node:fs";
import { dirname, join } from "node:path";
import { UnusableDatabaseError } from "./errors.js";

/**
 * The `PRAGMA application_id` of every paysim database ("PSIM" in ASCII). SQLite keeps it in
 * the file's header, so a file can be recognised as paysim's before it is opened.
 */
export const PAYSIM_APPLICATION_ID = 0x5053494d;

/** Files that hold keys or secrets are readable by their owner only (SPEC §3). */
export const PRIVATE_MODE = 0o600;
const PRIVATE_FOLDER_MODE = 0o700;

const SQLITE_MAGIC = Buffer.from("SQLite format 3\0", "latin1");
const HEADER_SIZE = 100;
/** A WAL file holds committed pages only past its 32-byte header. */
const WAL_HEADER_SIZE = 32;

/**
 * What was at a database path, found before anything there changed:
 * - `created`: nothing; now a new empty file with mode 0600 (its folder made 0700 when missing);
 * - `marked`: a SQLite file whose header carries paysim's application id;
 * - `unmarked`: a SQLite file without it that may be paysim's (from before the marker, or cut
 *   off before its first checkpoint): its schema decides.
 */
export type DatabaseFileState = "created" | "marked" | "unmarked";

/**
 * Checks what is at `path` without following a link, changing a byte or a mode bit, and
 * refuses with UnusableDatabaseError (naming the path and what to do) anything but a missing
 * file or a writable SQLite file that may be paysim's. Creates the file when it is missing.
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
  const header = readHeader(path);
  if (header.length < HEADER_SIZE || !header.subarray(0, SQLITE_MAGIC.length).equals(SQLITE_MAGIC)) {
    throw notPaysim(path, "is not a SQLite database (it does not start with the SQLite header)");
  }
  const applicationId = header.readInt32BE(68);
  if (applicationId === PAYSIM_APPLICATION_ID) return "marked";
  if (applicationId !== 0) {
    throw notPaysim(path, `is the SQLite database of another application (application_id 0x${(applicationId >>> 0).toString(16)})`);
  }
  // Without a WAL holding later commits, the header's schema version is the file's: 0 means no schema at all.
  if (header.readUInt32BE(60) === 0 && !walHasCommits(path)) throw notPaysim(path, "is a SQLite database without paysim's tables");
  return "unmarked";
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
    throw new UnusableDatabaseError(path, `The folder of the database ${path} is not writable; SQLite writes its log beside the database. Choose another --db.`);
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

function readHeader(path: string): Buffer {
  const header = Buffer.alloc(HEADER_SIZE);
  const fd = openSync(path, "r");
  try {
    return header.subarray(0, readSync(fd, header, 0, HEADER_SIZE, 0));
  } finally {
    closeSync(fd);
  }
}

function walHasCommits(path: string): boolean {
  try {
    return statSync(`${path}-wal`).size > WAL_HEADER_SIZE;
  } catch {
    return false;
  }
}

function cannotUse(path: string, error: unknown): UnusableDatabaseError {
  return new UnusableDatabaseError(path, `Cannot use ${path} as the database: ${(error as Error).message}. Choose another --db.`);
}

import { randomUUID } from "node:crypto";
import { closeSync, constants, fstatSync, linkSync, lstatSync, openSync, readSync, realpathSync, renameSync, rmSync, statSync, type Stats } from "node:fs";
import { open, rm } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";

/**
 * The one way paysim writes a file at a path someone typed that is not its database: a snapshot
 * export, the coverage report of `paysim exec`, and whatever report comes next. The rules:
 *
 * - the path may hold nothing yet, an empty file, or a file of the same kind that paysim wrote
 *   (each kind says how it recognises one: `FileKind.notOurs`); anything else is refused;
 * - it is never one of the files paysim keeps (`KeptFile`: the database in use, the imported
 *   snapshot, the export target, the config), compared by real identity (device and inode), so
 *   symbolic links, hard links and `..` in either path change nothing, and by location when the
 *   file does not exist yet;
 * - a symbolic link at the path is refused, never followed;
 * - the content goes to a temporary file in the same folder, flushed, then put in place: a new
 *   file by a hard link, which fails rather than replace a file made meanwhile; an earlier file of
 *   ours by moving it aside first, then checking that what was moved is still the file that
 *   passed (same inode, size and modification time), and moving it back when it is not. So a file
 *   put at the path between the check and the write is never replaced either.
 *
 * A refusal is an `OwnedFileError` with one line naming the path and why; nothing at the path,
 * nor beside it, has changed. `writeRefusal` gives the same answer without writing, so that a
 * command refuses before it runs anything.
 *
 * A new file to write is a new `FileKind`: its name, its mode, and how a file of it that paysim
 * wrote is recognised. A JSON report carries `"object": "<tag>"` at its top (`jsonFileKind`); a
 * format without such a field (JUnit XML) carries a mark of paysim's that its kind looks for in
 * the file's first bytes. The snapshot kind (store/snapshot.ts) reads the SQLite header and the lock.
 */

/** A kind of file paysim writes, and how it recognises one it wrote. */
export interface FileKind {
  /** What the file is, as a message says it: "snapshot", "coverage report". */
  readonly name: string;
  /** The new file's mode: forced whatever the umask when `private`, else 0666 less the umask. */
  readonly private: boolean;
  /**
   * Why the regular, non-empty file at `path` is not one of this kind that paysim wrote
   * (completing "it …"), or undefined when it is. Reads at most what it needs.
   */
  notOurs(path: string): string | undefined;
}

/** A file paysim must never write over, and what it is ("the database in use (--db)"). */
export interface KeptFile {
  readonly path: string;
  readonly role: string;
}

/** `path` could not, or may not, be written: the message is one line naming the kind, the path and why. */
export class OwnedFileError extends Error {
  /** The path as it was given. */
  readonly path: string;
  /** Why, the message's part after the path. */
  readonly reason: string;
  constructor(kind: FileKind, path: string, reason: string) {
    super(`Cannot write the ${kind.name} ${path}: ${reason}`);
    this.name = "OwnedFileError";
    this.path = path;
    this.reason = reason;
  }
}

/**
 * A kind recognised by its JSON: an object whose `object` field is `tag`, as every report
 * paysim writes in JSON carries (`"object": "coverage"`). Files larger than `maxBytes` are not
 * read: no report of this kind is that large.
 */
export function jsonFileKind(name: string, tag: string, maxBytes = 256 * 1024 * 1024): FileKind {
  return {
    name,
    private: false,
    notOurs(path) {
      const text = readAtMost(path, maxBytes);
      if (text === undefined) return `is larger than any ${name} paysim writes`;
      let value: unknown;
      try {
        value = JSON.parse(text.toString("utf8"));
      } catch {
        return `is not JSON, so not a ${name} paysim wrote`;
      }
      const object = value !== null && typeof value === "object" && !Array.isArray(value) ? (value as { object?: unknown }).object : undefined;
      return object === tag ? undefined : `is not a ${name} paysim wrote (its JSON has no "object": "${tag}")`;
    },
  };
}

/** The refusal of `kind` at `path` (an OwnedFileError), or undefined when it may be written there. Changes nothing. */
export function writeRefusal(path: string, kind: FileKind, kept: readonly KeptFile[]): OwnedFileError | undefined {
  const refusal = judge(path, kind, kept).refusal;
  return refusal === undefined ? undefined : refused(path, kind, refusal);
}

function refused(path: string, kind: FileKind, refusal: string): OwnedFileError {
  return new OwnedFileError(kind, path, `it ${refusal}; paysim left it as it is. Choose another path for the ${kind.name}.`);
}

/**
 * Writes `bytes` at `path` by the rules above (see the module comment), judging the path again
 * first: what was fine before a command ran may not be after it. `bytes` is only taken once the
 * path passed. On any failure, and when `signal` aborts, the temporary file is gone before the
 * promise rejects; a refusal rejects with OwnedFileError.
 */
export async function writeOwnedFile(path: string, kind: FileKind, bytes: () => Uint8Array, kept: readonly KeptFile[], signal?: AbortSignal): Promise<void> {
  const first = judge(path, kind, kept);
  if (first.refusal !== undefined) throw refused(path, kind, first.refusal);
  const temporary = temporaryBeside(path);
  try {
    await writeTemporary(temporary, bytes(), kind.private, signal);
    putInPlace(temporary, path, kind, kept, first.found);
  } catch (error) {
    await rm(temporary, { force: true }).catch(() => {});
    if (error instanceof OwnedFileError) throw error;
    throw new OwnedFileError(kind, path, signal?.aborted ? "the write was interrupted; nothing was written" : (error as Error).message);
  }
}

/** A new name in `path`'s folder for the file that will take its place. */
export const temporaryBeside = (path: string) => join(dirname(path), `.${basename(path)}.${randomUUID()}.tmp`);

/** What the longest name made beside a file adds to it: the temporary file's, moved aside (`putInPlace`). */
const LONGEST_BESIDE = `${temporaryBeside("x")}.earlier`.length - "x".length;
/** The longest file name the systems paysim runs on allow (Linux's and macOS's NAME_MAX), in bytes. */
const NAME_MAX = 255;

/**
 * Why a file cannot be written at `path` because of its name's length alone (completing "it …"):
 * the names paysim makes beside it for the write are longer than a folder holds. Undefined when they fit.
 */
function nameTooLong(path: string): string | undefined {
  const bytes = Buffer.byteLength(basename(path));
  if (bytes + LONGEST_BESIDE <= NAME_MAX) return undefined;
  return `has a name too long for the temporary file paysim writes beside it (${bytes} bytes; at most ${NAME_MAX - LONGEST_BESIDE} can be written this way)`;
}

/**
 * Writes `bytes` to the new file `temporary`, flushed to disk; mode 0600 whatever the umask when
 * `private`. The caller removes it on failure. Throws once `signal` aborts.
 */
export async function writeTemporary(temporary: string, bytes: Uint8Array, private_: boolean, signal?: AbortSignal): Promise<void> {
  signal?.throwIfAborted();
  const handle = await open(temporary, "wx", private_ ? 0o600 : 0o666);
  try {
    if (private_) await handle.chmod(0o600); // whatever the umask
    await handle.writeFile(bytes, { signal });
    signal?.throwIfAborted();
    await handle.sync();
  } finally {
    await handle.close();
  }
  signal?.throwIfAborted();
}

/** What a judged path held: nothing (or an empty file), or a file of ours with these stats. */
type Found = { state: "missing" } | { state: "ours"; stats: Stats };

function judge(path: string, kind: FileKind, kept: readonly KeptFile[]): { refusal?: string; found: Found } {
  const tooLong = nameTooLong(path);
  if (tooLong !== undefined) return { refusal: tooLong, found: { state: "missing" } };
  const keptAs = keptRole(path, kept);
  if (keptAs !== undefined) return { refusal: `is ${keptAs}`, found: { state: "missing" } };
  let stats: Stats;
  try {
    stats = lstatSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { found: { state: "missing" } };
    return { refusal: `cannot be examined (${(error as Error).message})`, found: { state: "missing" } };
  }
  const refusal = stats.isSymbolicLink()
    ? `is a symbolic link, and paysim does not follow links to the files it writes`
    : stats.isDirectory()
      ? "is a folder"
      : !stats.isFile()
        ? "is not a regular file"
        : stats.size === 0
          ? undefined
          : kind.notOurs(path);
  return { refusal, found: { state: "ours", stats } };
}

/**
 * A kind recognised by a mark of paysim's at the very start of the file, for formats without an
 * `object` field (JUnit XML): only the mark's length is read.
 */
export function markedFileKind(name: string, mark: string): FileKind {
  const expected = Buffer.from(mark, "utf8");
  return {
    name,
    private: false,
    notOurs(path) {
      const fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW);
      try {
        const start = Buffer.alloc(expected.length);
        const read = readSync(fd, start, 0, expected.length, 0);
        return read === expected.length && start.equals(expected) ? undefined : `does not start with the mark of a ${name} paysim wrote`;
      } finally {
        closeSync(fd);
      }
    },
  };
}

/** Which kept file `path` is: the same device and inode, or the same location (for files not made yet). */
export function keptRole(path: string, kept: readonly KeptFile[]): string | undefined {
  return keptRoleOf(identitiesOf(path, false), kept);
}

/** Which kept file one of `target`'s identities (`dev:ino`, or an absolute location) belongs to. */
export function keptRoleOf(target: ReadonlySet<string>, kept: readonly KeptFile[]): string | undefined {
  for (const file of kept) {
    const identities = identitiesOf(file.path, true);
    if ([...target].some((identity) => identities.has(identity))) return file.role;
  }
  return undefined;
}

/**
 * A path's identities: its absolute location (`..` resolved, the folder's links too when it
 * exists) and, when a file is there, `dev:ino`: the link's own, and with `follow` also the file
 * it leads to and that file's location.
 */
function identitiesOf(path: string, follow: boolean): Set<string> {
  const identities = new Set([locationOf(path)]);
  const add = (stat: () => Stats) => {
    try {
      const stats = stat();
      identities.add(`${stats.dev}:${stats.ino}`);
    } catch {
      // nothing there (yet): its location stands for it
    }
  };
  add(() => lstatSync(path));
  if (follow) {
    add(() => statSync(path));
    try {
      identities.add(locationOf(realpathSync(path)));
    } catch {
      // nothing there
    }
  }
  return identities;
}

function locationOf(path: string): string {
  const absolute = resolve(path);
  try {
    return join(realpathSync(dirname(absolute)), basename(absolute));
  } catch {
    return absolute;
  }
}

/** Puts the written `temporary` at `path` without ever replacing what did not pass the check. */
function putInPlace(temporary: string, path: string, kind: FileKind, kept: readonly KeptFile[], found: Found): void {
  if (found.state === "ours") {
    const aside = `${temporary}.earlier`;
    try {
      renameSync(path, aside);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
      return putInPlace(temporary, path, kind, kept, { state: "missing" }); // removed meanwhile: now a new file
    }
    if (!sameFile(lstatSync(aside), found.stats)) {
      restore(aside, path, kind);
      throw refused(path, kind, "changed while paysim was writing it (another program put a file there)");
    }
    try {
      linkSync(temporary, path);
    } catch (error) {
      restore(aside, path, kind);
      throw error;
    }
    rmSync(aside, { force: true });
    rmSync(temporary, { force: true });
    return;
  }
  try {
    linkSync(temporary, path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== undefined && NO_HARD_LINKS.has(code)) return renameIfStillMissing(temporary, path, kind, kept);
    if (code !== "EEXIST") throw error;
    // A file appeared at the path since it was judged: judged again, it is replaced only if it passes.
    const again = judge(path, kind, kept);
    if (again.refusal !== undefined) throw refused(path, kind, again.refusal);
    putInPlace(temporary, path, kind, kept, again.found);
    return;
  }
  rmSync(temporary, { force: true });
}

/** What link() fails with on a file system without hard links (some network and FUSE mounts, FAT). */
const NO_HARD_LINKS = new Set(["EPERM", "ENOTSUP", "EOPNOTSUPP", "ENOSYS"]);

/** Without hard links, a free path is judged once more and then renamed onto: the window is one call wide. */
function renameIfStillMissing(temporary: string, path: string, kind: FileKind, kept: readonly KeptFile[]): void {
  const again = judge(path, kind, kept);
  if (again.refusal !== undefined) throw refused(path, kind, again.refusal);
  if (again.found.state !== "missing") return putInPlace(temporary, path, kind, kept, again.found);
  renameSync(temporary, path);
}

const sameFile = (a: Stats, b: Stats) => a.dev === b.dev && a.ino === b.ino && a.size === b.size && a.mtimeMs === b.mtimeMs;

/** Puts a file moved aside back at `path`, unless something took its place (then it stays beside, and the message says where). */
function restore(aside: string, path: string, kind: FileKind): void {
  try {
    linkSync(aside, path);
    rmSync(aside, { force: true });
  } catch {
    throw new OwnedFileError(kind, path, `it changed while paysim was writing it; the file that was there is kept as ${aside}.`);
  }
}

/** The file's bytes, read through one descriptor that follows no link; undefined when it holds more than `max`. */
function readAtMost(path: string, max: number): Buffer | undefined {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  try {
    const size = fstatSync(fd).size;
    if (size > max) return undefined;
    const buffer = Buffer.alloc(size);
    let read = 0;
    while (read < size) {
      const n = readSync(fd, buffer, read, size - read, read);
      if (n === 0) break;
      read += n;
    }
    return buffer.subarray(0, read);
  } finally {
    closeSync(fd);
  }
}

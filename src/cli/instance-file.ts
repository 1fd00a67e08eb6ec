import { randomUUID } from "node:crypto";
import { closeSync, fchmodSync, fsyncSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";

/**
 * The files `paysim start` leaves for the other commands, each mode 0600 (they hold a key):
 *
 * - the registry: `.paysim/instances/<pid>.json` in the folder `start` ran from, one per
 *   running server, removed when it stops cleanly. The other commands find the server there.
 *   Being named by pid, a start never writes over the entry of another running server.
 * - the database's record: `instance.json` beside a database file (none for `:memory:`),
 *   kept after the server stops, so that a later start on that database prints the key it
 *   generated the first time (docs/cli.md), and `PAYSIM_DB` points the commands at it.
 *
 * Neither is ever written through a link at its path: each is written to a new file beside it
 * and renamed onto the path, which replaces a link there instead of following it. The registry's
 * folders (`.paysim` and `.paysim/instances`) must be real folders: a link there is refused.
 */
export interface InstanceFile {
  url: string;
  secret_key: string;
  /** The database file's absolute path, or ":memory:". */
  db: string;
  pid: number;
  /** When the process started serving, by the real clock (the sandbox clock can be moved). */
  started_at: string;
  webhook_endpoints: { id: string; url: string; secret: string }[];
  /**
   * A random value of this start's, which its server's /health recognises (`paysim stop` proves
   * with it that the process at `pid` is this paysim). Absent in files of earlier versions.
   */
  token?: string;
}

/** The database's record: `instance.json` beside a database file; none for ":memory:". */
export function databaseRecordPath(db: string): string | undefined {
  return db === ":memory:" ? undefined : join(dirname(resolve(db)), "instance.json");
}

/** Whether a record names this database. Records sit beside their database, so its file name tells them apart. */
export function recordIsFor(file: InstanceFile, db: string): boolean {
  return typeof file.db === "string" && basename(file.db) === basename(db);
}

/** The registry of the servers started from a folder. */
export function registryDir(cwd: string): string {
  return join(cwd, ".paysim", "instances");
}

export function registryEntryPath(cwd: string, pid: number): string {
  return join(registryDir(cwd), `${pid}.json`);
}

export function readInstanceFile(path: string): InstanceFile | undefined {
  try {
    const file = JSON.parse(readFileSync(path, "utf8")) as InstanceFile;
    return file !== null && typeof file === "object" && typeof file.url === "string" ? file : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Why the registry of `cwd` cannot hold entries (one line), or undefined: `.paysim` and
 * `.paysim/instances` are each missing or a real folder, never a link to one elsewhere.
 */
export function registryProblem(cwd: string): string | undefined {
  for (const folder of [join(cwd, ".paysim"), registryDir(cwd)]) {
    let stats;
    try {
      stats = lstatSync(folder);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      return `${folder} cannot be examined (${(error as Error).message}).`;
    }
    if (stats.isSymbolicLink())
      return `${folder} is a symbolic link; paysim keeps its instance files (they hold the key) only in a real folder. Remove the link.`;
    if (!stats.isDirectory()) return `${folder} is not a folder; paysim keeps its instance files there. Remove it.`;
  }
  return undefined;
}

/**
 * Written with mode 0600 (it holds the secret key) to a new file beside `path`, then renamed onto
 * it: a link at `path` is replaced, never written through, and a reader never sees half a file.
 */
export function writeInstanceFile(path: string, content: InstanceFile): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const temporary = join(dirname(path), `.${basename(path)}.${randomUUID()}.tmp`);
  // "wx" is O_CREAT | O_EXCL, which creates a new file and follows no link.
  const fd = openSync(temporary, "wx", 0o600);
  try {
    try {
      fchmodSync(fd, 0o600); // whatever the umask
      const bytes = Buffer.from(`${JSON.stringify(content, null, 2)}\n`);
      let written = 0;
      while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}

export function removeInstanceFile(path: string): void {
  rmSync(path, { force: true });
}

/** The registry's entries in a folder, each with its path; unreadable files are skipped. */
export function registryEntries(cwd: string): { path: string; file: InstanceFile }[] {
  let names: string[];
  try {
    names = readdirSync(registryDir(cwd));
  } catch {
    return [];
  }
  return names
    .filter((name) => /^\d+\.json$/.test(name))
    .flatMap((name) => {
      const path = join(registryDir(cwd), name);
      const file = readInstanceFile(path);
      return file && typeof file.pid === "number" ? [{ path, file }] : [];
    });
}

/** Whether a process with this pid exists (a signal-0 probe; EPERM means it exists under another user). */
export function pidAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** How long a /health probe may take before the server counts as not answering: a guard for a hung process. */
const PROBE_TIMEOUT_MS = 2000;

/** Whether a paysim answers /health at this URL. */
export async function serverAnswers(url: string): Promise<boolean> {
  try {
    const response = await fetch(`${url}/health`, { signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
    const body = (await response.json()) as { status?: unknown };
    return response.ok && body?.status === "ok";
  } catch {
    return false;
  }
}

/** Whether another process that is running and answering owns this file: then nobody else writes over it. */
export async function ownedByAnotherLiveServer(file: InstanceFile | undefined): Promise<boolean> {
  return file !== undefined && file.pid !== process.pid && pidAlive(file.pid) && (await serverAnswers(file.url));
}

/**
 * The servers started from this folder that are running, the first started first.
 * Entries of processes that are gone are skipped. When several remain, those that do not
 * answer /health are dropped too (a pid the system gave to another program since),
 * unless none answers: then the request itself reports what is wrong.
 */
export async function liveInstances(cwd: string): Promise<InstanceFile[]> {
  const running = registryEntries(cwd)
    .map((entry) => entry.file)
    .filter((file) => pidAlive(file.pid))
    .sort((a, b) => String(a.started_at).localeCompare(String(b.started_at)) || a.pid - b.pid);
  if (running.length <= 1) return running;
  const answering = await Promise.all(running.map((file) => serverAnswers(file.url)));
  const live = running.filter((_, i) => answering[i]);
  return live.length > 0 ? live : running;
}

/** Removes the entries of processes that are gone (a server killed without a clean stop leaves its entry). */
export function pruneRegistry(cwd: string): void {
  for (const { path, file } of registryEntries(cwd)) {
    if (file.pid !== process.pid && !pidAlive(file.pid)) removeInstanceFile(path);
  }
}

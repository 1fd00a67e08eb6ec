// The store's refusals, apart from open.ts so that the public type declarations that name them
// need no types of better-sqlite3 (a devDependency).

/** The database at `path` comes from a newer paysim: its schema version is higher than this one knows. */
export class NewerDatabaseError extends Error {
  constructor(path: string, found: number, known: number) {
    super(`The database ${path} has schema version ${found}, newer than this paysim understands (${known}). ` + `Upgrade paysim, or start with another --db.`);
    this.name = "NewerDatabaseError";
  }
}

/** Another process (or another connection in this one) holds the database's lock. */
export class DatabaseInUseError extends Error {
  constructor(path: string) {
    super(`The database ${path} is in use by another paysim (another process holds its lock). ` + `Stop that one first, or start with another --db.`);
    this.name = "DatabaseInUseError";
  }
}

/**
 * The `db` path is not one paysim may use: a folder, a symbolic link, a read-only or empty file,
 * a file that is not a paysim database, or a paysim database whose stored clock is out of range.
 * The message names the file and what to do; nothing at the path has been changed.
 */
export class UnusableDatabaseError extends Error {
  /** The path as it was given. */
  readonly path: string;
  constructor(path: string, message: string) {
    super(message);
    this.name = "UnusableDatabaseError";
    this.path = path;
  }
}

/**
 * `snapshot(path)` could not write `path` (its folder missing or read-only, the disk full, a folder
 * at `path`…). The message names the path and the reason; nothing was left at `path` or beside it,
 * and an earlier file at `path` is as it was.
 */
export class SnapshotError extends Error {
  /** The path as it was given. */
  readonly path: string;
  constructor(path: string, cause: unknown) {
    super(`Cannot write the snapshot ${path}: ${(cause as Error)?.message ?? String(cause)}`);
    this.name = "SnapshotError";
    this.path = path;
  }
}

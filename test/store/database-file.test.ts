import { Database, type SqliteDatabase } from "../../src/store/sqlite-driver.js";
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, copyFileSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { PAYSIM_APPLICATION_ID } from "../../src/store/database-file.js";
import { MIGRATIONS } from "../../src/store/schema.js";
import { DatabaseInUseError, UnusableDatabaseError } from "../../src/store/errors.js";
import { openDatabase, type Db } from "../../src/store/open.js";
import { defer, useDatabase, useTempDir } from "../helpers/disposables.js";

/** A fresh folder, removed when the test finishes. */
function folder(): string {
  return useTempDir("paysim-dbfile-");
}
/** `openDatabase`, closed when the test finishes unless the test closed it. */
function open(path: string): Db {
  return useDatabase(path);
}

/** Everything about a path and its folder that a refusal must leave as it was: entries, modes, bytes. */
function stateOf(path: string): unknown {
  const dir = dirname(path);
  return readdirSync(dir)
    .sort()
    .map((name) => {
      const entry = join(dir, name);
      const stats = lstatSync(entry);
      return {
        name,
        mode: stats.mode,
        sha256: stats.isFile() ? createHash("sha256").update(readFileSync(entry)).digest("hex") : null,
        inside: stats.isDirectory() ? readdirSync(entry) : null,
      };
    });
}

/** A paysim database at `path`, closed, holding one meta row. */
function paysimDatabase(path: string): string {
  const db = openDatabase(path);
  db.prepare("INSERT INTO meta (key, value) VALUES ('kept', 'yes')").run();
  db.close();
  return path;
}

/** A SQLite file made by another application. */
function foreignDatabase(path: string, sql: string, pragmas: string[] = []): string {
  const db = new Database(path);
  db.exec(sql);
  for (const pragma of pragmas) db.pragma(pragma);
  db.close();
  return path;
}

/** Copies a database and its -wal while its connection is still open: a process killed before its checkpoint. */
function cutOff(db: SqliteDatabase, from: string, to: string): string {
  copyFileSync(from, to);
  copyFileSync(`${from}-wal`, `${to}-wal`);
  db.close();
  return to;
}

const refusals: [string, (dir: string) => string, RegExp][] = [
  [
    "a folder",
    (dir) => {
      const path = join(dir, "data");
      mkdirSync(path, { mode: 0o755 });
      writeFileSync(join(path, "notes.txt"), "mine");
      return path;
    },
    /is a folder, not a file\. Pass a file path with --db, e\.g\. .*data\/paysim\.db\./,
  ],
  [
    "a symbolic link to a paysim database",
    (dir) => {
      const target = paysimDatabase(join(dir, "real.db"));
      chmodSync(target, 0o644);
      symlinkSync(target, join(dir, "link.db"));
      return join(dir, "link.db");
    },
    /is a symbolic link \(to .*real\.db\); paysim does not follow links/,
  ],
  [
    "a symbolic link to a JSON file",
    (dir) => {
      writeFileSync(join(dir, "config.json"), '{"companies":[]}');
      chmodSync(join(dir, "config.json"), 0o644);
      symlinkSync(join(dir, "config.json"), join(dir, "link.db"));
      return join(dir, "link.db");
    },
    /is a symbolic link/,
  ],
  [
    "a named pipe",
    (dir) => {
      execFileSync("mkfifo", [join(dir, "pipe.db")]);
      return join(dir, "pipe.db");
    },
    /is not a regular file/,
  ],
  [
    "a read-only (0444) paysim database",
    (dir) => {
      const path = paysimDatabase(join(dir, "paysim.db"));
      chmodSync(path, 0o444);
      return path;
    },
    /is read-only \(mode 0444\); paysim writes to its database and does not change a file's permissions\. Make it writable \(chmod u\+w .*\), or choose another --db\./,
  ],
  [
    "an empty file",
    (dir) => {
      writeFileSync(join(dir, "paysim.db"), "");
      return join(dir, "paysim.db");
    },
    /is an empty file \(0 bytes\), not a paysim database\. Delete it/,
  ],
  [
    "a JSON file",
    (dir) => {
      writeFileSync(join(dir, "paysim.db"), JSON.stringify({ companies: [{ name: "Acme", currency: "EUR" }] }, null, 2).repeat(10));
      chmodSync(join(dir, "paysim.db"), 0o644);
      return join(dir, "paysim.db");
    },
    /is not a SQLite database, so it is not a paysim database; paysim leaves it as it is\. Choose another --db\./,
  ],
  [
    "a short text file",
    (dir) => {
      writeFileSync(join(dir, "paysim.db"), "hello");
      return join(dir, "paysim.db");
    },
    /is not a SQLite database/,
  ],
  [
    "another application's SQLite file with no schema version",
    (dir) => foreignDatabase(join(dir, "app.db"), "CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('mine')"),
    /is a SQLite database without paysim's tables/,
  ],
  [
    "another application's SQLite file with its own companies table",
    (dir) =>
      foreignDatabase(join(dir, "crm.db"), "CREATE TABLE companies (id TEXT, name TEXT); INSERT INTO companies VALUES ('c1', 'Acme')", ["user_version = 3"]),
    /is a SQLite database without paysim's tables \(it has companies\)/,
  ],
  [
    "another application's SQLite file marked with its own application_id",
    (dir) => foreignDatabase(join(dir, "app.db"), "CREATE TABLE meta (key TEXT, value TEXT)", ["application_id = 42", "user_version = 10"]),
    /is the SQLite database of another application \(application_id 0x2a\)/,
  ],
  [
    "a SQLite database with no tables",
    (dir) => foreignDatabase(join(dir, "blank.db"), "CREATE TABLE gone (x); DROP TABLE gone"),
    /is a SQLite database without paysim's tables/,
  ],
  [
    "a SQLite database with no tables but a schema version",
    (dir) => foreignDatabase(join(dir, "blank.db"), "CREATE TABLE gone (x); DROP TABLE gone", ["user_version = 10"]),
    /is a SQLite database without paysim's tables \(it has none\)/,
  ],
];

describe("openDatabase refuses what is not a paysim database, changing nothing", () => {
  it.each(refusals)("refuses %s with UnusableDatabaseError naming it, leaving every byte and mode bit", (_name, make, message) => {
    const path = make(folder());
    const before = stateOf(path);
    let caught: unknown;
    try {
      open(path);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(UnusableDatabaseError);
    expect((caught as UnusableDatabaseError).message).toContain(path);
    expect((caught as UnusableDatabaseError).message).toMatch(message);
    expect((caught as UnusableDatabaseError).path).toBe(path);
    expect(stateOf(path)).toEqual(before);
  });

  it("refuses another application's WAL database cut off before its checkpoint, adding nothing of paysim's (its WAL is folded into the file when the refusing connection closes)", () => {
    const dir = folder();
    const live = new Database(join(dir, "live.db"));
    live.pragma("journal_mode = WAL");
    live.pragma("wal_autocheckpoint = 0");
    live.exec("CREATE TABLE companies (id TEXT); INSERT INTO companies VALUES ('c1')");
    live.pragma("user_version = 7");
    const path = cutOff(live, join(dir, "live.db"), join(dir, "app.db"));
    const mode = statSync(path).mode;
    expect(() => open(path)).toThrow(/app\.db is a SQLite database without paysim's tables \(it has companies\)/);
    const check = new Database(path, { readonly: true });
    defer(() => check.close());
    expect(check.prepare("SELECT name FROM sqlite_master").pluck().all()).toEqual(["companies"]);
    expect(check.prepare("SELECT id FROM companies").pluck().all()).toEqual(["c1"]);
    expect(check.pragma("user_version", { simple: true })).toBe(7);
    expect(check.pragma("application_id", { simple: true })).toBe(0);
    expect(statSync(path).mode).toBe(mode);
  });

  it("still opens the database a refused link pointed to, by its own path", () => {
    const dir = folder();
    const target = paysimDatabase(join(dir, "real.db"));
    symlinkSync(target, join(dir, "link.db"));
    expect(() => open(join(dir, "link.db"))).toThrow(UnusableDatabaseError);
    expect(open(target).prepare("SELECT value FROM meta WHERE key = 'kept'").pluck().get()).toBe("yes");
  });
});

/** Whether another process can take the lock of `path` right now (paysim's own lock step, in a child). */
function lockableByAnotherProcess(path: string): boolean {
  const driver = pathToFileURL(resolve("dist/store/sqlite-driver.js")).href;
  const script = `const { Database: D } = await import(${JSON.stringify(driver)}); const db = new D(process.argv[1], { timeout: 0 });
    try { db.pragma("locking_mode = EXCLUSIVE"); db.exec("BEGIN EXCLUSIVE; COMMIT"); console.log("locked"); } catch (e) { console.log(e.code); } finally { db.close(); }`;
  return execFileSync(process.execPath, ["--input-type=module", "-e", script, path], { cwd: process.cwd(), encoding: "utf8" }).trim() === "locked";
}

describe("a refused second open in the same process", () => {
  it("keeps the first connection's lock: checking the path never opens the file outside SQLite", () => {
    const path = paysimDatabase(join(folder(), "paysim.db"));
    const first = open(path);
    expect(lockableByAnotherProcess(path)).toBe(false);
    expect(() => open(path)).toThrow(DatabaseInUseError);
    // Closing a descriptor of the file would have dropped every POSIX lock of this process on it.
    expect(lockableByAnotherProcess(path)).toBe(false);
    first.close();
    expect(lockableByAnotherProcess(path)).toBe(true);
  });
});

describe("openDatabase on what is paysim's", () => {
  const applicationId = (db: Db) => db.pragma("application_id", { simple: true });

  it("creates a missing database in a private folder (0700) as a private file (0600) marked as paysim's", () => {
    const path = join(folder(), "new", "deeper", "paysim.db");
    const db = open(path);
    expect(statSync(dirname(path)).mode & 0o777).toBe(0o700);
    expect(statSync(join(dirname(path), "..")).mode & 0o777).toBe(0o700);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(applicationId(db)).toBe(PAYSIM_APPLICATION_ID);
    // The marker is in the file's own header at once, not only in the WAL.
    expect(readFileSync(path).readInt32BE(68)).toBe(PAYSIM_APPLICATION_ID);
  });

  it("reopens its own database, data kept", () => {
    const path = paysimDatabase(join(folder(), "paysim.db"));
    expect(open(path).prepare("SELECT value FROM meta WHERE key = 'kept'").pluck().get()).toBe("yes");
  });

  it("recognises a paysim database from before the marker by its schema, and marks it", () => {
    const path = paysimDatabase(join(folder(), "paysim.db"));
    const raw = new Database(path);
    raw.pragma("application_id = 0");
    raw.close();
    const db = open(path);
    expect(db.prepare("SELECT value FROM meta WHERE key = 'kept'").pluck().get()).toBe("yes");
    expect(applicationId(db)).toBe(PAYSIM_APPLICATION_ID);
  });

  it("recognises an unmarked paysim database cut off before its first checkpoint (its schema only in the WAL)", () => {
    const dir = folder();
    const live = new Database(join(dir, "live.db"));
    live.pragma("locking_mode = EXCLUSIVE");
    live.pragma("journal_mode = WAL");
    live.transaction(() => {
      for (const step of MIGRATIONS) {
        step.up(live);
        live.pragma(`user_version = ${step.version}`);
      }
      live.prepare("INSERT INTO meta (key, value) VALUES ('kept', 'yes')").run();
    })();
    const path = cutOff(live, join(dir, "live.db"), join(dir, "paysim.db"));
    expect(readFileSync(path).readUInt32BE(60)).toBe(0); // the file's own header: no schema version yet
    const db = open(path);
    expect(db.prepare("SELECT value FROM meta WHERE key = 'kept'").pluck().get()).toBe("yes");
    expect(applicationId(db)).toBe(PAYSIM_APPLICATION_ID);
  });

  it("makes its own world-readable database private again", () => {
    const path = paysimDatabase(join(folder(), "paysim.db"));
    chmodSync(path, 0o644);
    open(path);
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it("hands the stored meta to checkStoredMeta before changing anything, and a refusal leaves the file as it was", () => {
    const path = paysimDatabase(join(folder(), "paysim.db"));
    chmodSync(path, 0o640);
    const before = stateOf(path);
    const seen: [string, string][] = [];
    const refuse = (meta: ReadonlyMap<string, string>) => {
      seen.push(...meta);
      throw new UnusableDatabaseError(path, "refused by its meta");
    };
    expect(() => openDatabase(path, MIGRATIONS, { checkStoredMeta: refuse })).toThrow("refused by its meta");
    expect(seen).toContainEqual(["kept", "yes"]);
    expect(stateOf(path)).toEqual(before);
  });

  it("leaves no file behind when a new database cannot be made", () => {
    const path = join(folder(), "paysim.db");
    const failing = [
      {
        version: 10,
        up: () => {
          throw new Error("step 10 failed");
        },
      },
    ];
    expect(() => openDatabase(path, failing)).toThrow("step 10 failed");
    expect(existsSync(path)).toBe(false);
    expect(existsSync(`${path}-wal`)).toBe(false);
  });
});

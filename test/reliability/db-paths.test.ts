import { Database } from "../../src/store/sqlite-driver.js";
import { chmodSync, mkdirSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startPaysim, UnusableDatabaseError } from "../../src/index.js";
import { createPaysim } from "../../src/paysim.js";
import { runCli } from "../helpers/cli.js";
import { useTempDir } from "../helpers/disposables.js";
import { fileTree } from "../helpers/file-tree.js";

// Issue 17 item 4: `--db` paths were changed before they were checked: a folder chmodded to
// 0600, a read-only database made writable, a JSON file or a link's target chmodded, a foreign
// SQLite file migrated in place. Each is now refused, named, and left exactly as it was.
// The child-process tests run the real binary (dist/): run `npm run build` first.

const folder = () => useTempDir("paysim-db-paths-");

/** A closed paysim database at `path`. */
async function paysimDatabase(path: string): Promise<string> {
  await (await createPaysim({ port: 0, db: path })).close();
  return path;
}

const cases: [string, (dir: string) => Promise<string> | string, string][] = [
  [
    "a folder",
    (dir) => {
      mkdirSync(join(dir, "data"), { mode: 0o755 });
      writeFileSync(join(dir, "data", "keep.txt"), "mine");
      return join(dir, "data");
    },
    "is a folder, not a file",
  ],
  [
    "a read-only (0444) paysim database",
    async (dir) => {
      const path = await paysimDatabase(join(dir, "paysim.db"));
      chmodSync(path, 0o444);
      return path;
    },
    "is read-only (mode 0444)",
  ],
  [
    "a JSON file",
    (dir) => {
      writeFileSync(join(dir, "config.json"), JSON.stringify({ companies: [{ name: "Acme", currency: "EUR" }] }, null, 2));
      chmodSync(join(dir, "config.json"), 0o644);
      return join(dir, "config.json");
    },
    "is not a SQLite database",
  ],
  [
    "a symbolic link to a paysim database",
    async (dir) => {
      const target = await paysimDatabase(join(dir, "real.db"));
      chmodSync(target, 0o644);
      symlinkSync(target, join(dir, "link.db"));
      return join(dir, "link.db");
    },
    "is a symbolic link",
  ],
  [
    "an empty file",
    (dir) => {
      writeFileSync(join(dir, "paysim.db"), "");
      return join(dir, "paysim.db");
    },
    "is an empty file (0 bytes)",
  ],
  [
    "a foreign SQLite file",
    (dir) => {
      const db = new Database(join(dir, "notes.db"));
      db.exec("CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('mine')");
      db.close();
      return join(dir, "notes.db");
    },
    "is a SQLite database without paysim's tables",
  ],
  [
    "a foreign SQLite file with its own companies table",
    (dir) => {
      const db = new Database(join(dir, "crm.db"));
      db.exec("CREATE TABLE companies (id TEXT PRIMARY KEY, name TEXT); INSERT INTO companies VALUES ('c1', 'Acme')");
      db.pragma("user_version = 2");
      db.close();
      return join(dir, "crm.db");
    },
    "is a SQLite database without paysim's tables (it has companies)",
  ],
];

describe("paysim start --db checks the path before touching it", () => {
  it.each(cases)("refuses %s: exit 1, a message naming it, and not a byte or mode bit changed", async (_name, make, says) => {
    const dir = folder();
    const path = await make(dir);
    const before = fileTree(dir);
    const result = await runCli(["start", "--port", "0", "--no-ui", "--db", path], { cwd: folder() });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    const message = result.stderr.trim();
    expect(message).toMatch(/^paysim: /);
    expect(message).toContain(path);
    expect(message).toContain(says);
    expect(message).not.toMatch(/unable to open database file|SqliteError|\n\s+at /);
    expect(fileTree(dir)).toEqual(before);
  });
});

describe("startPaysim({ db }) checks the path before touching it", () => {
  it.each(cases)("rejects %s with UnusableDatabaseError naming it, changing nothing", async (_name, make, says) => {
    const dir = folder();
    const path = await make(dir);
    const before = fileTree(dir);
    const refused = await startPaysim({ db: path }).then(
      (paysim) => paysim.close().then(() => undefined),
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(UnusableDatabaseError);
    expect((refused as Error).message).toContain(path);
    expect((refused as Error).message).toContain(says);
    expect(fileTree(dir)).toEqual(before);
  });

  it("creates a missing database in missing folders: folders 0700, file 0600", async () => {
    const dir = folder();
    const path = join(dir, "state", "paysim.db");
    const paysim = await startPaysim({ db: path });
    await paysim.close();
    expect(statSync(join(dir, "state")).mode & 0o777).toBe(0o700);
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });
});

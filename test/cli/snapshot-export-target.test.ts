import { createHash } from "node:crypto";
import { copyFileSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DatabaseInUseError, SnapshotError, startPaysim } from "../../src/index.js";
import { Database } from "../../src/store/sqlite-driver.js";
import { runCli } from "../helpers/cli.js";
import { defer, usePaysimCli, useTempDir } from "../helpers/disposables.js";
import { clientFor, createIntent } from "../helpers/paysim.js";

const sha256 = (path: string) => createHash("sha256").update(readFileSync(path)).digest("hex");

/** The payment intents in the database at `path`, read once no paysim holds it, after SQLite's integrity check. */
function storedIntents(path: string): string[] {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    expect(db.pragma("integrity_check", { simple: true })).toBe("ok");
    return db.prepare("SELECT id FROM payment_intents").pluck().all() as string[];
  } finally {
    db.close();
  }
}

/** Nothing but `names` in `dir` (a temporary file of a snapshot would show here). */
const onlyFiles = (dir: string, names: string[]) =>
  expect(
    readdirSync(dir)
      .filter((name) => name !== ".paysim")
      .sort(),
  ).toEqual([...names].sort());

describe("an export never replaces a database in use, nor a file that is not a paysim snapshot", () => {
  it("two paysim start on one database: the second's --export-on-exit is refused before it starts, and the first keeps every payment", async () => {
    const dir = useTempDir("paysim-export-target-");
    const db = join(dir, "x.db");
    const first = await usePaysimCli(["--db", db, "--no-ui", "--secret-key", "sk_test_export_target_01"], { cwd: dir });
    const client = clientFor(first.url, first.key);
    const acknowledged: string[] = [];
    for (let i = 0; i < 30; i++) acknowledged.push((await createIntent(client, { amount: 100 + i })).id as string);

    // Refused before the second serves at all: it would have nowhere to put what it was given.
    const refused = await runCli(["start", "--db", ":memory:", "--no-ui", "--export-on-exit", db], { cwd: dir });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      `paysim: Cannot write the snapshot ${db}: it is the database of a running paysim (another connection holds its lock), and replacing it would destroy that paysim's data; paysim left it as it is. Choose another path for the snapshot.\n`,
    );
    expect(refused.stdout).toBe("");

    for (let i = 0; i < 5; i++) acknowledged.push((await createIntent(client, { amount: 900 + i })).id as string);
    expect((await first.cli.stop("SIGTERM")).code).toBe(0);
    onlyFiles(dir, ["x.db", "instance.json"]);
    expect(storedIntents(db).sort()).toEqual([...acknowledged].sort());
  });

  it("paysim exec --export-on-exit onto the database of a paysim start in the same folder: refused before the command runs, exit 1", async () => {
    const dir = useTempDir("paysim-export-target-");
    const started = await usePaysimCli(["--no-ui"], { cwd: dir });
    const intent = await createIntent(clientFor(started.url, started.key));
    const result = await runCli(["exec", "--export-on-exit", ".paysim/paysim.db", "--", process.execPath, "-e", "console.log('passed')"], { cwd: dir });
    expect(result.stdout).toBe("");
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      "paysim: Cannot write the snapshot .paysim/paysim.db: it is the database of a running paysim (another connection holds its lock)",
    );
    expect(result.stderr).toContain("the command was not run.");
    expect((await createIntent(clientFor(started.url, started.key))).id).toMatch(/^pi_/);
    expect((await started.cli.stop("SIGTERM")).code).toBe(0);
    expect(storedIntents(join(dir, ".paysim", "paysim.db"))).toContain(intent.id);
  });

  it("paysim exec --export-on-exit onto a file of the user's (payments.ts): refused naming it, the file unchanged, exit 1", async () => {
    const dir = useTempDir("paysim-export-target-");
    const mine = join(dir, "payments.ts");
    writeFileSync(mine, "export const payments = [];\n".repeat(10));
    const before = sha256(mine);
    const result = await runCli(["exec", "--export-on-exit", mine, "--", process.execPath, "-e", "0"], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `paysim: Cannot write the snapshot ${mine}: it is not a paysim snapshot (not a SQLite file), and paysim replaces only an earlier snapshot; paysim left it as it is.`,
    );
    expect(sha256(mine)).toBe(before);
    onlyFiles(dir, ["payments.ts"]);
  });

  it("snapshot(path) onto the database of a paysim running in the same process: SnapshotError, and that paysim keeps its lock and its data", async () => {
    const dir = useTempDir("paysim-export-target-");
    const db = join(dir, "x.db");
    const live = await startPaysim({ db });
    defer(() => live.close());
    const intent = await createIntent(clientFor(live.url, live.secretKey));
    const other = await startPaysim();
    defer(() => other.close());
    const error = await other.snapshot(db).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error).toBeInstanceOf(SnapshotError);
    expect(error?.message).toMatch(
      new RegExp(
        `^Cannot write the snapshot ${db.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: it is the database of a running paysim \\(another connection holds its lock\\)`,
      ),
    );
    // Its lock still holds: nothing closed a descriptor of the file behind SQLite's back.
    await expect(startPaysim({ db })).rejects.toBeInstanceOf(DatabaseInUseError);
    expect((await createIntent(clientFor(live.url, live.secretKey))).id).toMatch(/^pi_/);
    await live.close();
    onlyFiles(dir, ["x.db"]);
    expect(storedIntents(db)).toContain(intent.id);
  });

  it("snapshot(path) onto the database of a paysim that was killed (writes left in its -wal): refused, database and -wal unchanged", async () => {
    const dir = useTempDir("paysim-export-target-");
    const live = await startPaysim({ db: join(dir, "live.db") });
    defer(() => live.close());
    await createIntent(clientFor(live.url, live.secretKey));
    // What a SIGKILL leaves: the file and its -wal, with no paysim holding them.
    const killed = join(dir, "killed.db");
    copyFileSync(join(dir, "live.db"), killed);
    copyFileSync(join(dir, "live.db-wal"), `${killed}-wal`);
    const before = [sha256(killed), sha256(`${killed}-wal`)];
    await expect(live.snapshot(killed)).rejects.toThrow(
      `Cannot write the snapshot ${killed}: it is a database that did not stop cleanly (its latest writes are in ${killed}-wal)`,
    );
    expect([sha256(killed), sha256(`${killed}-wal`)]).toEqual(before);
    expect(readdirSync(dir).filter((name) => name.startsWith("killed"))).toEqual(["killed.db", "killed.db-wal"]);
  });

  it("snapshot(path) onto a stopped paysim's database (no paysim holds it): refused, it is not a snapshot", async () => {
    const dir = useTempDir("paysim-export-target-");
    const db = join(dir, "stopped.db");
    await (await startPaysim({ db })).close();
    const before = sha256(db);
    const paysim = await startPaysim();
    defer(() => paysim.close());
    await expect(paysim.snapshot(db)).rejects.toThrow(
      `Cannot write the snapshot ${db}: it is a paysim database (in WAL mode), not a snapshot, and replacing it would destroy its data; paysim left it as it is.`,
    );
    expect(sha256(db)).toBe(before);
    onlyFiles(dir, ["stopped.db"]);
  });

  it("snapshot(path) replaces an empty file and an earlier snapshot, and refuses a folder or another SQLite file", async () => {
    const dir = useTempDir("paysim-export-target-");
    const paysim = await startPaysim();
    defer(() => paysim.close());
    const empty = join(dir, "empty.db");
    writeFileSync(empty, "");
    await paysim.snapshot(empty);
    expect(statSync(empty).size).toBeGreaterThan(0);
    await paysim.snapshot(empty); // now an earlier snapshot
    const foreign = join(dir, "other-app.db");
    const sqlite = new Database(foreign);
    sqlite.exec("CREATE TABLE notes (body TEXT)");
    sqlite.close();
    await expect(paysim.snapshot(foreign)).rejects.toThrow("it is not a paysim snapshot (a SQLite file without paysim's mark)");
    mkdirSync(join(dir, "folder"));
    await expect(paysim.snapshot(join(dir, "folder"))).rejects.toThrow("it is a folder");
    onlyFiles(dir, ["empty.db", "folder", "other-app.db"]);
  });
});

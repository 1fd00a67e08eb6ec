import { Database, type SqliteDatabase } from "../../src/store/sqlite-driver.js";
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync, copyFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SnapshotError, startPaysim, UnusableDatabaseError } from "../../src/index.js";
import { defer, usePaysim, useTempDir, useStartedPaysim } from "../helpers/disposables.js";
import { createIntent, callApi } from "../helpers/paysim.js";

/** The snapshot's rows, read without changing a byte of the file. */
function readOnly(path: string): SqliteDatabase {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  defer(() => db.close());
  return db;
}

const sha256 = (path: string) => createHash("sha256").update(readFileSync(path)).digest("hex");

const start = (options: Parameters<typeof startPaysim>[0] = {}) => useStartedPaysim(options);

describe("snapshot(path)", () => {
  // "Acknowledged before it": a creation whose 201 had arrived before snapshot() was called is in
  // the snapshot. "None after it": a creation sent after snapshot() resolved is not. Creations
  // answered while it ran may be in it or not, but only whole (the intent and its event together).
  it("taken during a burst of concurrent creations, passes integrity_check and holds exactly what was acknowledged before it", async () => {
    const paysim = await usePaysim();
    const target = join(useTempDir(), "burst.db");
    const answered: string[] = [];
    let stopBurst = false;
    let reachedHalf!: () => void;
    const half = new Promise<void>((resolve) => (reachedHalf = resolve));
    const worker = async () => {
      while (!stopBurst) {
        answered.push((await createIntent(paysim)).id as string);
        if (answered.length === 100) reachedHalf();
      }
    };
    const burst = Promise.all(Array.from({ length: 16 }, worker));
    await half;
    const acknowledgedBefore = [...answered];
    await paysim.snapshot(target);
    stopBurst = true;
    await burst;
    const createdAfter: string[] = [];
    for (let i = 0; i < 5; i++) createdAfter.push((await createIntent(paysim)).id as string);

    const db = readOnly(target);
    expect(db.pragma("integrity_check", { simple: true })).toBe("ok");
    const inSnapshot = new Set(db.prepare("SELECT id FROM payment_intents").pluck().all() as string[]);
    for (const id of acknowledgedBefore) expect(inSnapshot.has(id)).toBe(true);
    for (const id of createdAfter) expect(inSnapshot.has(id)).toBe(false);
    const everyAnswer = new Set(answered);
    for (const id of inSnapshot) expect(everyAnswer.has(id)).toBe(true);
    const withEvent = new Set(db.prepare("SELECT object_id FROM events WHERE type = 'payment_intent.created'").pluck().all() as string[]);
    expect([...inSnapshot].filter((id) => !withEvent.has(id))).toEqual([]);
    expect(inSnapshot.size).toBeGreaterThanOrEqual(acknowledgedBefore.length);
  });

  it("writes a file readable by its owner only, in rollback-journal mode, with nothing left beside it", async () => {
    const paysim = await start();
    const dir = useTempDir();
    await paysim.snapshot(join(dir, "state.db"));
    expect(statSync(join(dir, "state.db")).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(["state.db"]);
    expect(readOnly(join(dir, "state.db")).pragma("journal_mode", { simple: true })).toBe("delete");
  });

  it("replaces an earlier snapshot at the same path as a whole", async () => {
    const paysim = await start();
    const path = join(useTempDir(), "state.db");
    await paysim.snapshot(path);
    const intent = await callApi(paysim.url, paysim.secretKey, "POST", "/v1/payment_intents", { body: { amount: 1000 }, idempotencyKey: "replace-1" });
    await paysim.snapshot(path);
    expect(readOnly(path).prepare("SELECT count(*) FROM payment_intents WHERE id = ?").pluck().get(intent.body.id)).toBe(1);
  });

  it("fails mid-write (the target turns out to be a folder) with an error naming it, leaving the target as it was and no temporary file", async () => {
    const paysim = await start();
    const dir = useTempDir();
    const target = join(dir, "taken");
    mkdirSync(target);
    writeFileSync(join(target, "keep.txt"), "mine");
    const error = await paysim.snapshot(target).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error).toBeInstanceOf(SnapshotError);
    expect(error?.message).toContain(`Cannot write the snapshot ${target}: `);
    expect(readdirSync(dir)).toEqual(["taken"]);
    expect(readdirSync(target)).toEqual(["keep.txt"]);
  });

  it("into a folder that does not exist (or was removed) rejects naming the path, and writes nothing", async () => {
    const paysim = await start();
    const dir = useTempDir();
    const target = join(dir, "gone", "state.db");
    await expect(paysim.snapshot(target)).rejects.toThrow(target);
    expect(readdirSync(dir)).toEqual([]);
  });

  it("rejects once the instance is closed", async () => {
    const paysim = await startPaysim();
    await paysim.close();
    const target = join(useTempDir(), "late.db");
    await expect(paysim.snapshot(target)).rejects.toThrow(/stopped/);
  });
});

describe("startPaysim({ importFrom })", () => {
  async function snapshotWithOneIntent(): Promise<{ path: string; intentId: string }> {
    const source = await start();
    const created = await callApi(source.url, source.secretKey, "POST", "/v1/payment_intents", { body: { amount: 4200 }, idempotencyKey: "import-1" });
    const path = join(useTempDir(), "fixture.db");
    await source.snapshot(path);
    await source.close();
    return { path, intentId: created.body.id as string };
  }

  it("starts in memory from a copy of the snapshot and leaves the snapshot byte-identical", async () => {
    const { path, intentId } = await snapshotWithOneIntent();
    const before = sha256(path);
    const paysim = await start({ importFrom: path });
    const listed = await callApi(paysim.url, paysim.secretKey, "GET", `/v1/payment_intents/${intentId}`);
    expect(listed.status).toBe(200);
    expect(listed.body.amount).toBe(4200);
    await callApi(paysim.url, paysim.secretKey, "POST", "/v1/payment_intents", { body: { amount: 1 }, idempotencyKey: "after-import" });
    await paysim.close();
    expect(sha256(path)).toBe(before);
  });

  it("starts into a missing db file from the snapshot; importing into that file once it holds data is refused, untouched", async () => {
    const { path, intentId } = await snapshotWithOneIntent();
    const snapshotBytes = sha256(path);
    const db = join(useTempDir(), "paysim.db");
    const first = await start({ importFrom: path, db });
    expect((await callApi(first.url, first.secretKey, "GET", `/v1/payment_intents/${intentId}`)).status).toBe(200);
    await first.close();
    expect(statSync(db).mode & 0o777).toBe(0o600);
    const held = sha256(db);
    const refused = await startPaysim({ importFrom: path, db }).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(refused).toBeInstanceOf(UnusableDatabaseError);
    expect(refused?.message).toBe(`The database ${db} already holds data; remove it or choose another --db to import a snapshot into.`);
    expect(sha256(db)).toBe(held);
    expect(sha256(path)).toBe(snapshotBytes);
  });

  it.each([
    [
      "a text file",
      (path: string) => writeFileSync(path, "not a database at all, just some text that is long enough".repeat(4)),
      /is not a SQLite database, so it is not a paysim snapshot/,
    ],
    [
      "another application's SQLite file",
      (path: string) => {
        const db = new Database(path);
        db.exec("CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('x')");
        db.close();
      },
      /has no paysim mark, so it is not a paysim snapshot/,
    ],
  ])("refuses %s, naming it, and leaves it as it was", async (_what, make, message) => {
    const path = join(useTempDir(), "not-a-snapshot.db");
    make(path);
    const before = sha256(path);
    const error = await startPaysim({ importFrom: path }).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error).toBeInstanceOf(UnusableDatabaseError);
    expect(error?.message).toContain(path);
    expect(error?.message).toMatch(message);
    expect(sha256(path)).toBe(before);
  });

  it("refuses a snapshot from a newer paysim, naming it", async () => {
    const { path } = await snapshotWithOneIntent();
    const newer = join(useTempDir(), "newer.db");
    copyFileSync(path, newer);
    const db = new Database(newer);
    db.pragma("user_version = 9999");
    db.close();
    const error = await startPaysim({ importFrom: newer }).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error?.message).toMatch(
      new RegExp(`^The snapshot ${newer.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} comes from a newer paysim \\(schema version 9999`),
    );
  });

  it("imports a cleanly closed paysim database file as it is: nothing changes or appears beside it", async () => {
    const dir = useTempDir();
    const db = join(dir, "paysim.db");
    const source = await start({ db });
    const created = await callApi(source.url, source.secretKey, "POST", "/v1/payment_intents", { body: { amount: 900 }, idempotencyKey: "closed-db" });
    await source.close();
    const before = sha256(db);
    const paysim = await start({ importFrom: db });
    expect((await callApi(paysim.url, paysim.secretKey, "GET", `/v1/payment_intents/${created.body.id}`)).status).toBe(200);
    await paysim.close();
    expect(sha256(db)).toBe(before);
    expect(readdirSync(dir).filter((name) => name.startsWith("paysim.db"))).toEqual(["paysim.db"]);
  });

  it("refuses a database whose -wal file still holds writes (in use, or not closed cleanly), naming it", async () => {
    const { path } = await snapshotWithOneIntent();
    writeFileSync(`${path}-wal`, "frames not yet in the file");
    const error = await startPaysim({ importFrom: path }).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error?.message).toBe(
      `The file ${path} has writes in ${path}-wal beside it (a database in use, or not closed cleanly), so the file alone is not a snapshot. Stop the paysim using it, or pass a file written by a paysim snapshot.`,
    );
  });

  it("refuses a folder given as the snapshot, naming it", async () => {
    const dir = useTempDir();
    await expect(startPaysim({ importFrom: dir })).rejects.toThrow(`Cannot read the snapshot ${dir}: it is not a regular file.`);
  });

  it("refuses a missing snapshot file, naming it, and creates no db file", async () => {
    const dir = useTempDir();
    const missing = join(dir, "missing.db");
    await expect(startPaysim({ importFrom: missing, db: join(dir, "paysim.db") })).rejects.toThrow(missing);
    expect(readdirSync(dir)).toEqual([]);
  });
});

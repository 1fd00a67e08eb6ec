import { Database } from "../../src/store/sqlite-driver.js";
import { chmodSync, existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MIGRATIONS, type Migration } from "../../src/store/schema.js";
import { migration010 } from "../../src/store/migrations/010-initial.js";
import { NewerDatabaseError } from "../../src/store/errors.js";
import { openDatabase, type Db } from "../../src/store/open.js";
import { defer, useDatabase, useTempPath } from "../helpers/disposables.js";

const LATEST = MIGRATIONS.at(-1)!.version;
const INITIAL_TABLES = ["api_keys", "companies", "events", "idempotency_keys", "meta", "payment_intents", "webhook_endpoints"];

/** `name` in a fresh folder, removed when the test finishes. */
function freshPath(name = "paysim.db"): string {
  return useTempPath(name, "paysim-store-");
}
/** `openDatabase` at paysim's own steps (by default), closed when the test finishes unless the test closed it. */
function open(path: string, migrations: readonly Migration[] = MIGRATIONS): Db {
  return useDatabase(path, migrations);
}

const tables = (db: Db) => db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").pluck().all() as string[];
const userVersion = (db: Db) => db.pragma("user_version", { simple: true });
const mode = (path: string) => statSync(path).mode & 0o777;

describe("openDatabase on a new file", () => {
  it("migrates to the latest version, numbered in steps of 10, with the initial tables", () => {
    const db = open(freshPath());
    expect(userVersion(db)).toBe(LATEST);
    // Steps are numbered in tens, in order; a number may be left free: changes made side by side
    // each take their own.
    const versions = MIGRATIONS.map((m) => m.version);
    expect(versions[0]).toBe(10);
    expect(versions.every((version, i) => version % 10 === 0 && (i === 0 || version > versions[i - 1]!))).toBe(true);
    expect(tables(db)).toEqual(expect.arrayContaining(INITIAL_TABLES));
  });

  it("stops at version 10 with exactly the initial tables when only the first step is known", () => {
    const db = open(freshPath(), [migration010]);
    expect(userVersion(db)).toBe(10);
    expect(tables(db)).toEqual(INITIAL_TABLES);
  });

  it("turns on WAL and foreign keys", () => {
    const db = open(freshPath());
    expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
    expect(db.pragma("foreign_keys", { simple: true })).toBe(1);
  });

  it("keeps savepoint journals in memory, never in a temporary file", () => {
    const db = open(freshPath());
    expect(db.pragma("temp_store", { simple: true })).toBe(2); // MEMORY
  });

  it("creates missing parent folders", () => {
    const path = join(freshPath(), "..", "a", "b", "paysim.db");
    open(path);
    expect(existsSync(path)).toBe(true);
  });

  it("gives the database and its -wal file mode 0600, and makes no -shm file (the lock keeps the WAL index in memory)", () => {
    const path = freshPath();
    const db = open(path);
    db.prepare("INSERT INTO meta (key, value) VALUES ('k', 'v')").run();
    expect(mode(path)).toBe(0o600);
    expect(existsSync(`${path}-wal`)).toBe(true);
    expect(mode(`${path}-wal`)).toBe(0o600);
    expect(existsSync(`${path}-shm`)).toBe(false);
  });

  it("makes an existing world-readable database file private", () => {
    const path = freshPath();
    open(path).close();
    chmodSync(path, 0o644);
    open(path);
    expect(mode(path)).toBe(0o600);
  });

  it("opens :memory: without touching the disk", () => {
    const db = open(":memory:");
    expect(userVersion(db)).toBe(LATEST);
    expect(existsSync(":memory:")).toBe(false);
  });

  it("runs the migrations once per process for :memory:: later ones start migrated, each its own database, with the same schema and pragmas", () => {
    let runs = 0;
    const counted: Migration[] = [{ version: 10, up: (db) => void (runs++, migration010.up(db)) }];
    const first = open(":memory:", counted);
    const second = open(":memory:", counted);
    expect(runs).toBe(1);
    for (const db of [first, second]) {
      expect(userVersion(db)).toBe(10);
      expect(tables(db)).toEqual(INITIAL_TABLES);
      expect(db.pragma("foreign_keys", { simple: true })).toBe(1);
      expect(db.pragma("application_id", { simple: true })).not.toBe(0);
    }
    first.prepare("INSERT INTO meta (key, value) VALUES ('only', 'first')").run();
    expect(second.prepare("SELECT count(*) FROM meta WHERE key = 'only'").pluck().get()).toBe(0);
    expect(open(":memory:", counted).prepare("SELECT count(*) FROM meta WHERE key = 'only'").pluck().get()).toBe(0);
    const full = open(":memory:");
    expect(full.prepare("SELECT sql FROM sqlite_master ORDER BY name").pluck().all()).toEqual(
      open(freshPath()).prepare("SELECT sql FROM sqlite_master ORDER BY name").pluck().all(),
    );
  });
});

describe("openDatabase on an existing file", () => {
  it("is a no-op when the file is already at the latest version: no step runs again, data kept", () => {
    const path = freshPath();
    let runs = 0;
    const counted: Migration[] = [{ version: 10, up: (db) => void (runs++, migration010.up(db)) }];
    const first = open(path, counted);
    first.prepare("INSERT INTO meta (key, value) VALUES ('kept', 'yes')").run();
    first.close();
    const again = open(path, counted);
    expect(runs).toBe(1);
    expect(userVersion(again)).toBe(10);
    expect(again.prepare("SELECT value FROM meta WHERE key = 'kept'").pluck().get()).toBe("yes");
  });

  it("applies only the pending steps, keeping the data of earlier ones (N−1 → N)", () => {
    const path = freshPath();
    const old = open(path, [migration010]);
    old.prepare("INSERT INTO meta (key, value) VALUES ('from', 'v10')").run();
    old.close();
    const steps: number[] = [];
    const later: Migration = { version: 20, up: (db) => void (steps.push(20), db.exec("CREATE TABLE later_table (x INTEGER)")) };
    const db = open(path, [migration010, later]);
    expect(steps).toEqual([20]);
    expect(userVersion(db)).toBe(20);
    expect(tables(db)).toContain("later_table");
    expect(db.prepare("SELECT value FROM meta WHERE key = 'from'").pluck().get()).toBe("v10");
  });

  it("applies pending steps in one transaction: a failing step leaves the database as it was", () => {
    const path = freshPath();
    open(path, [migration010]).close();
    const broken: Migration[] = [
      migration010,
      { version: 20, up: (db) => db.exec("CREATE TABLE half_done (x INTEGER)") },
      {
        version: 30,
        up: () => {
          throw new Error("step 30 failed");
        },
      },
    ];
    expect(() => openDatabase(path, broken)).toThrow("step 30 failed");
    const db = open(path, [migration010]);
    expect(userVersion(db)).toBe(10);
    expect(tables(db)).not.toContain("half_done");
  });

  it("refuses a database from a newer paysim with NewerDatabaseError naming the file and both versions", () => {
    const path = freshPath();
    const raw = new Database(path);
    raw.exec("CREATE TABLE future (x TEXT); INSERT INTO future VALUES ('from the future')");
    raw.pragma(`user_version = ${LATEST + 10}`);
    raw.close();

    let caught: unknown;
    try {
      openDatabase(path);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(NewerDatabaseError);
    expect((caught as Error).message).toContain(path);
    expect((caught as Error).message).toContain(String(LATEST + 10));
    expect((caught as Error).message).toContain(String(LATEST));
  });

  it("leaves a newer database's bytes untouched (no WAL switch, no migration)", () => {
    const path = freshPath();
    const raw = new Database(path);
    raw.exec("CREATE TABLE future (x TEXT); INSERT INTO future VALUES ('from the future')");
    raw.pragma(`user_version = ${LATEST + 10}`);
    raw.close();
    const before = readFileSync(path);

    expect(() => openDatabase(path)).toThrow(NewerDatabaseError);
    expect(readFileSync(path).equals(before)).toBe(true);
    expect(existsSync(`${path}-wal`)).toBe(false);
    const check = new Database(path, { readonly: true });
    defer(() => check.close());
    expect(check.pragma("user_version", { simple: true })).toBe(LATEST + 10);
    expect(check.pragma("journal_mode", { simple: true })).toBe("delete");
  });

  it("refuses a file that is not a database with an error, leaving it as it was", () => {
    const path = freshPath();
    writeFileSync(path, "this is not sqlite, just text ".repeat(100));
    const before = readFileSync(path);
    expect(() => openDatabase(path)).toThrow();
    expect(readFileSync(path).equals(before)).toBe(true);
  });
});

describe("migration 40: idempotency records in arrival order", () => {
  const record = (key: string, createdMs: number) => ({
    company_id: "co_1",
    method: "POST",
    path: "/v1/payment_intents",
    key,
    fingerprint: `f-${key}`,
    status: 201,
    body: `{"id":"pi_${key}"}`,
    created_ms: createdMs,
  });

  it("keeps every record of a version-30 database, found by its key as before", () => {
    const path = freshPath();
    const old = open(
      path,
      MIGRATIONS.filter((m) => m.version <= 30),
    );
    old.prepare("INSERT INTO companies (id, name, currency, created_at) VALUES ('co_1', 'Acme', 'EUR', 'x')").run();
    const insert = old.prepare(
      "INSERT INTO idempotency_keys (company_id, method, path, key, fingerprint, status, body, created_ms) VALUES (@company_id, @method, @path, @key, @fingerprint, @status, @body, @created_ms)",
    );
    for (const [key, at] of [
      ["b", 2],
      ["a", 1],
      ["c", 3],
    ] as const)
      insert.run(record(key, at));
    old.close();

    const db = open(path);
    expect(userVersion(db)).toBe(LATEST);
    const rows = db.prepare("SELECT seq, key, fingerprint, body FROM idempotency_keys ORDER BY seq").all();
    expect(rows).toEqual([
      { seq: 1, key: "a", fingerprint: "f-a", body: '{"id":"pi_a"}' },
      { seq: 2, key: "b", fingerprint: "f-b", body: '{"id":"pi_b"}' },
      { seq: 3, key: "c", fingerprint: "f-c", body: '{"id":"pi_c"}' },
    ]);
    const plan = db
      .prepare("EXPLAIN QUERY PLAN SELECT * FROM idempotency_keys WHERE company_id = ? AND method = ? AND path = ? AND key = ?")
      .all("co_1", "POST", "/v1/payment_intents", "b") as { detail: string }[];
    expect(plan.map((step) => step.detail).join(" ")).toContain("idempotency_keys_by_key");
  });

  it("still allows one record per company, method, path and key", () => {
    const db = open(freshPath());
    db.prepare("INSERT INTO companies (id, name, currency, created_at) VALUES ('co_1', 'Acme', 'EUR', 'x')").run();
    const insert = db.prepare(
      "INSERT INTO idempotency_keys (company_id, method, path, key, fingerprint, status, body, created_ms) VALUES (@company_id, @method, @path, @key, @fingerprint, @status, @body, @created_ms)",
    );
    insert.run(record("k", 1));
    expect(() => insert.run(record("k", 2))).toThrow(/UNIQUE/);
    insert.run({ ...record("k", 3), path: "/v1/payouts" });
    expect(db.prepare("SELECT count(*) FROM idempotency_keys").pluck().get()).toBe(2);
  });
});

describe("migration 50: endpoints made by --forward-to are marked", () => {
  it("keeps every endpoint of a version-40 database, its live ones marked as made before the marking (2), and new rows can be marked", () => {
    const path = freshPath();
    const old = open(
      path,
      MIGRATIONS.filter((m) => m.version <= 40),
    );
    old.prepare("INSERT INTO companies (id, name, currency, created_at) VALUES ('co_1', 'Acme', 'EUR', 'x')").run();
    const insert = old.prepare(
      "INSERT INTO webhook_endpoints (id, company_id, url, secret, enabled_events, created_at, deleted_at) VALUES (?, 'co_1', ?, 'whsec_x', '[\"*\"]', 'x', ?)",
    );
    insert.run("we_live", "http://127.0.0.1:9/a", null);
    insert.run("we_deleted", "http://127.0.0.1:9/b", "y");
    old.close();

    const db = open(path);
    expect(userVersion(db)).toBe(LATEST);
    expect(db.prepare("SELECT id, url, deleted_at, from_forward_to FROM webhook_endpoints ORDER BY seq").all()).toEqual([
      { id: "we_live", url: "http://127.0.0.1:9/a", deleted_at: null, from_forward_to: 2 },
      { id: "we_deleted", url: "http://127.0.0.1:9/b", deleted_at: "y", from_forward_to: 0 },
    ]);
    db.prepare(
      "INSERT INTO webhook_endpoints (id, company_id, url, secret, enabled_events, created_at, from_forward_to) VALUES ('we_fwd', 'co_1', 'http://127.0.0.1:9/c', 'whsec_x', '[\"*\"]', 'x', 1)",
    ).run();
    expect(db.prepare("SELECT id FROM webhook_endpoints WHERE from_forward_to = 1").pluck().all()).toEqual(["we_fwd"]);
  });
});

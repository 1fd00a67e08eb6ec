import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync, watch, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Database } from "../../src/store/sqlite-driver.js";
import { startPaysim } from "../../src/index.js";
import { PAYSIM_BIN, runCli } from "../helpers/cli.js";
import { defer, usePaysimCli, useTempDir, useTmux } from "../helpers/disposables.js";
import { callApi, clientFor, createIntent } from "../helpers/paysim.js";
import { closedPortUrl } from "../helpers/receiver.js";
import { requireTmux } from "../helpers/tmux.js";

const sha256 = (path: string) => createHash("sha256").update(readFileSync(path)).digest("hex");

describe("paysim start --export-on-exit / --import", () => {
  it.each(["SIGTERM", "SIGINT", "SIGHUP", "SIGQUIT"] as const)(
    "--export-on-exit writes a 0600 snapshot on %s that the next --import starts from, unchanged",
    async (signal) => {
      const dir = useTempDir("paysim-cli-snapshot-");
      const snapshot = join(dir, "exported.db");
      const first = await usePaysimCli(["--db", ":memory:", "--no-ui", "--export-on-exit", snapshot], { cwd: dir });
      const intent = await createIntent(clientFor(first.url, first.key), { amount: 3100 });
      expect((await first.cli.stop(signal)).code).toBe(0);
      expect(statSync(snapshot).mode & 0o777).toBe(0o600);
      const exported = sha256(snapshot);

      const second = await usePaysimCli(["--db", ":memory:", "--no-ui", "--import", snapshot, "--secret-key", first.key], { cwd: dir });
      const found = await callApi(second.url, second.key, "GET", `/v1/payment_intents/${intent.id}`);
      expect(found.status).toBe(200);
      expect(found.body.amount).toBe(3100);
      expect((await second.cli.stop("SIGTERM")).code).toBe(0);
      expect(sha256(snapshot)).toBe(exported);
    },
  );

  it("--import into a --db that already holds data is refused with exit 1, the database untouched", async () => {
    const dir = useTempDir("paysim-cli-snapshot-");
    const db = join(dir, "paysim.db");
    const snapshot = join(dir, "exported.db");
    const first = await usePaysimCli(["--db", db, "--no-ui", "--export-on-exit", snapshot], { cwd: dir });
    expect((await first.cli.stop("SIGTERM")).code).toBe(0);
    const held = sha256(db);

    const result = await runCli(["start", "--port", "0", "--no-ui", "--db", db, "--import", snapshot], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`paysim: The database ${db} already holds data; remove it or choose another --db`);
    expect(sha256(db)).toBe(held);
  });

  it("--import of a file that is not a paysim snapshot is refused with exit 1, naming it, and nothing is created", async () => {
    const dir = useTempDir("paysim-cli-snapshot-");
    const bogus = join(dir, "notes.txt");
    writeFileSync(bogus, "these are notes, not a database; ".repeat(8));
    const result = await runCli(["start", "--port", "0", "--no-ui", "--db", join(dir, "new.db"), "--import", bogus], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`paysim: The file ${bogus} is not a SQLite database, so it is not a paysim snapshot`);
    expect(readdirSync(dir).filter((name) => name !== ".paysim")).toEqual(["notes.txt"]);
  });

  it("a snapshot that cannot be written on SIGTERM is reported naming it; paysim still stops, with exit 1", async () => {
    const dir = useTempDir("paysim-cli-snapshot-");
    const unwritable = join(dir, "no-such-folder", "exported.db");
    const started = await usePaysimCli(["--db", ":memory:", "--no-ui", "--export-on-exit", unwritable], { cwd: dir });
    const result = await started.cli.stop("SIGTERM");
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`paysim: Cannot write the snapshot ${unwritable}`);
    expect(readdirSync(dir).filter((name) => name !== ".paysim")).toEqual([]);
  });

  it("--export-on-exit writes the snapshot when the live view quits on q (a real terminal)", async () => {
    requireTmux();
    const dir = useTempDir("paysim-cli-snapshot-");
    const snapshot = join(dir, "on-q.db");
    const key = "sk_test_export_on_q_0001";
    const port = Number(new URL(await closedPortUrl()).port);
    const terminal = await useTmux(
      [process.execPath, PAYSIM_BIN, "start", "--port", String(port), "--db", ":memory:", "--secret-key", key, "--export-on-exit", snapshot],
      {
        columns: 140,
        rows: 40,
        cwd: dir,
      },
    );
    const url = `http://127.0.0.1:${port}`;
    await terminal.waitForScreen((screen) => screen.includes("q to quit"), "the live view's status line");
    const intent = await createIntent(clientFor(url, key), { amount: 777 });
    await terminal.sendKeys("q");
    expect(await terminal.waitForExit()).toBe(0);
    const db = new Database(snapshot, { readonly: true, fileMustExist: true });
    defer(() => db.close());
    expect(db.prepare("SELECT amount FROM payment_intents WHERE id = ?").pluck().get(intent.id)).toBe(777);
  }, 60_000);

  it("a second SIGTERM while --export-on-exit writes leaves no temporary file beside the target, and exits 130", async () => {
    const dir = useTempDir("paysim-cli-snapshot-");
    // A state of some 20 MB, so that writing its snapshot takes a while.
    const big = join(dir, "big.db");
    const source = await startPaysim();
    await source.snapshot(big);
    await source.close();
    const db = new Database(big);
    db.exec(`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000)
      INSERT INTO payment_intents (id, company_id, reference, amount, currency, description, capture_method, state, created_at, updated_at)
      SELECT printf('pi_%024d', i), (SELECT id FROM companies LIMIT 1), printf('PAY-%010d', i), 100, 'EUR', printf('%.1000c', 'x'), 'automatic', 'created', '2025-01-01T00:00:00.000Z', '2025-01-01T00:00:00.000Z' FROM n`);
    db.close();
    const target = join(dir, "exported.db");
    const started = await usePaysimCli(["--db", ":memory:", "--no-ui", "--import", big, "--export-on-exit", target], { cwd: dir });
    const temporary = new Promise<void>((resolve) => {
      const watcher = watch(dir, (_event, name) => {
        if (name?.startsWith(".exported.db.") && name.endsWith(".tmp")) {
          watcher.close();
          resolve();
        }
      });
      defer(() => watcher.close());
    });
    started.cli.child.kill("SIGTERM");
    await temporary;
    const result = await started.cli.stop("SIGTERM");
    expect(result.code).toBe(130);
    expect(readdirSync(dir).filter((name) => name.endsWith(".tmp"))).toEqual([]);
    // Either the export was interrupted (nothing at the target) or it had just finished (a whole snapshot).
    if (readdirSync(dir).includes("exported.db")) {
      const exported = new Database(target, { readonly: true });
      defer(() => exported.close());
      expect(exported.pragma("integrity_check", { simple: true })).toBe("ok");
    }
  }, 60_000);
});

import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { usePaysimCli, useTempDir } from "../helpers/disposables.js";
import { callApi, clientFor, createIntent } from "../helpers/paysim.js";

const sha256 = (path: string) => createHash("sha256").update(readFileSync(path)).digest("hex");

describe("paysim start --export-on-exit / --import", () => {
  it.each(["SIGTERM", "SIGINT"] as const)("--export-on-exit writes a 0600 snapshot on %s that the next --import starts from, unchanged", async (signal) => {
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
  });

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
});

import { beforeAll, describe, expect, it } from "vitest";
import { join } from "node:path";
import { registryEntryPath, writeInstanceFile } from "../../src/cli/instance-file.js";
import { suiteScope, usePaysim, useTempDir } from "../helpers/disposables.js";
import { startTestPaysim, type TestPaysim } from "../helpers/paysim.js";
import { runCli } from "../helpers/cli.js";

/** What `paysim start` would leave at `path` for a server at `url` run by this (live) process. */
function writeInstance(path: string, url: string, key: string): void {
  writeInstanceFile(path, {
    url,
    secret_key: key,
    db: join(path, "..", "paysim.db"),
    pid: process.pid,
    started_at: new Date().toISOString(),
    webhook_endpoints: [],
  });
}

describe("how the commands find the server", () => {
  const thisSuite = suiteScope();
  let paysim: TestPaysim;
  let cwd: string;
  beforeAll(async () => {
    paysim = await usePaysim({}, thisSuite);
    cwd = useTempDir("paysim-cwd-", thisSuite);
  });

  it("uses PAYSIM_URL and PAYSIM_SECRET_KEY when no flags are given", async () => {
    const { code, stdout } = await runCli(["clock", "show", "--json"], { cwd: cwd, env: { PAYSIM_URL: paysim.url, PAYSIM_SECRET_KEY: paysim.secretKey } });
    expect(code).toBe(0);
    expect(JSON.parse(stdout).object).toBe("clock");
  });

  it("prefers --key over PAYSIM_SECRET_KEY", async () => {
    const { code, stderr } = await runCli(["clock", "show", "--key", "sk_test_not_a_real_key_000"], {
      cwd,
      env: { PAYSIM_URL: paysim.url, PAYSIM_SECRET_KEY: paysim.secretKey },
    });
    expect(code).toBe(1);
    expect(stderr).toMatch(/^paysim: unauthorized: /);
  });

  it("finds the running server started from the working folder in .paysim/instances/", async () => {
    const dir = useTempDir("paysim-instance-");
    writeInstance(registryEntryPath(dir, process.pid), paysim.url, paysim.secretKey);
    const { code, stdout } = await runCli(["trigger", "payment_intent.created", "--json"], { cwd: dir });
    expect(code).toBe(0);
    const { event } = JSON.parse(stdout);
    expect((await paysim.api("GET", `/v1/events/${event.id}`)).status).toBe(200);
  });

  it("reads the instance.json beside PAYSIM_DB when that is set", async () => {
    const dir = useTempDir("paysim-db-");
    writeInstance(join(dir, "data", "instance.json"), paysim.url, paysim.secretKey);
    const { code, stdout } = await runCli(["clock", "show", "--json"], { cwd: cwd, env: { PAYSIM_DB: join(dir, "data", "paysim.db") } });
    expect(code).toBe(0);
    expect(JSON.parse(stdout).object).toBe("clock");
  });

  it("looks in this folder's running servers when PAYSIM_DB is :memory: (that leaves no record)", async () => {
    const dir = useTempDir("paysim-memory-");
    writeInstance(registryEntryPath(dir, process.pid), paysim.url, paysim.secretKey);
    const { code, stdout } = await runCli(["clock", "show", "--json"], { cwd: dir, env: { PAYSIM_DB: ":memory:" } });
    expect(code).toBe(0);
    expect(JSON.parse(stdout).object).toBe("clock");
  });

  it("exits 2 naming the record it looked for when PAYSIM_DB names a database with none", async () => {
    const dir = useTempDir("paysim-norecord-");
    const db = join(dir, "data", "paysim.db");
    const { code, stderr } = await runCli(["clock", "show"], { cwd: cwd, env: { PAYSIM_DB: db } });
    expect(code).toBe(2);
    expect(stderr).toContain(`no record of ${db} in ${join(dir, "data", "instance.json")}`);
  });

  it("does not send instance.json's key to a server at another URL", async () => {
    const other = await usePaysim();
    const dir = useTempDir("paysim-other-");
    writeInstance(registryEntryPath(dir, process.pid), paysim.url, paysim.secretKey);
    const { code, stderr } = await runCli(["clock", "show", "--url", other.url], { cwd: dir });
    expect(code).toBe(1);
    expect(stderr).toBe(`paysim: no secret key for ${other.url}: pass --key sk_test_… or set PAYSIM_SECRET_KEY.\n`);
  });

  it("exits 2 naming the URL and suggesting paysim start when nothing listens there", async () => {
    const gone = await startTestPaysim();
    const { url, secretKey } = gone;
    await gone.dispose();
    for (const args of [
      ["clock", "show"],
      ["trigger", "payment_intent.created"],
      ["events", "list"],
    ]) {
      const { code, stdout, stderr } = await runCli([...args, "--url", url, "--key", secretKey], { cwd: cwd });
      expect(code).toBe(2);
      expect(stdout).toBe("");
      expect(stderr).toContain(`no paysim server reachable at ${url} (ECONNREFUSED)`);
      expect(stderr).toContain("`paysim start`");
    }
  });

  it("exits 2 when no server is known at all", async () => {
    const { code, stderr } = await runCli(["events", "list"], { cwd: cwd });
    expect(code).toBe(2);
    expect(stderr).toBe(
      `paysim: no paysim server known: no --url, no PAYSIM_URL and no running paysim started from this folder (${join(cwd, ".paysim", "instances")}). Run \`paysim start\` in this folder, or pass --url and --key.\n`,
    );
  });

  it("skips the entry of a server that is gone (killed without a clean stop) and exits 2", async () => {
    const dir = useTempDir("paysim-gone-");
    // A pid no process has: the kernel's pid_max is far below it.
    writeInstanceFile(registryEntryPath(dir, 2 ** 30), {
      url: paysim.url,
      secret_key: paysim.secretKey,
      db: ":memory:",
      pid: 2 ** 30,
      started_at: new Date().toISOString(),
      webhook_endpoints: [],
    });
    const { code, stderr } = await runCli(["clock", "show"], { cwd: dir });
    expect(code).toBe(2);
    expect(stderr).toContain("no running paysim started from this folder");
  });

  it("refuses a --url that is not a URL", async () => {
    const { code, stderr } = await runCli(["clock", "show", "--url", "localhost:7420", "--key", paysim.secretKey], { cwd: cwd });
    expect(code).toBe(1);
    expect(stderr).toContain('"localhost:7420" is not an http(s) URL');
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { join } from "node:path";
import { registryEntryPath, writeInstanceFile } from "../../src/cli/instance-file.js";
import { startTestPaysim, tempDir, type TestPaysim } from "../helpers/paysim.js";
import { runCli } from "../helpers/cli.js";

/** What `paysim start` would leave at `path` for a server at `url` run by this (live) process. */
function writeInstance(path: string, url: string, key: string): void {
  writeInstanceFile(path, { url, secret_key: key, db: join(path, "..", "paysim.db"), pid: process.pid, started_at: new Date().toISOString(), webhook_endpoints: [] });
}

describe("how the commands find the server", () => {
  let paysim: TestPaysim;
  let cwd: ReturnType<typeof tempDir>;
  beforeAll(async () => {
    paysim = await startTestPaysim();
    cwd = tempDir("paysim-cwd-");
  });
  afterAll(async () => {
    await paysim.dispose();
    cwd.cleanup();
  });

  it("uses PAYSIM_URL and PAYSIM_SECRET_KEY when no flags are given", async () => {
    const { code, stdout } = await runCli(["clock", "show", "--json"], { cwd: cwd.dir, env: { PAYSIM_URL: paysim.url, PAYSIM_SECRET_KEY: paysim.secretKey } });
    expect(code).toBe(0);
    expect(JSON.parse(stdout).object).toBe("clock");
  });

  it("prefers --key over PAYSIM_SECRET_KEY", async () => {
    const { code, stderr } = await runCli(["clock", "show", "--key", "sk_test_not_a_real_key_000"], {
      cwd: cwd.dir,
      env: { PAYSIM_URL: paysim.url, PAYSIM_SECRET_KEY: paysim.secretKey },
    });
    expect(code).toBe(1);
    expect(stderr).toMatch(/^paysim: unauthorized: /);
  });

  it("finds the running server started from the working folder in .paysim/instances/", async () => {
    const dir = tempDir("paysim-instance-");
    try {
      writeInstance(registryEntryPath(dir.dir, process.pid), paysim.url, paysim.secretKey);
      const { code, stdout } = await runCli(["trigger", "payment_intent.created", "--json"], { cwd: dir.dir });
      expect(code).toBe(0);
      const { event } = JSON.parse(stdout);
      expect((await paysim.api("GET", `/v1/events/${event.id}`)).status).toBe(200);
    } finally {
      dir.cleanup();
    }
  });

  it("reads the instance.json beside PAYSIM_DB when that is set", async () => {
    const dir = tempDir("paysim-db-");
    try {
      writeInstance(join(dir.dir, "data", "instance.json"), paysim.url, paysim.secretKey);
      const { code, stdout } = await runCli(["clock", "show", "--json"], { cwd: cwd.dir, env: { PAYSIM_DB: join(dir.dir, "data", "paysim.db") } });
      expect(code).toBe(0);
      expect(JSON.parse(stdout).object).toBe("clock");
    } finally {
      dir.cleanup();
    }
  });

  it("looks in this folder's running servers when PAYSIM_DB is :memory: (that leaves no record)", async () => {
    const dir = tempDir("paysim-memory-");
    try {
      writeInstance(registryEntryPath(dir.dir, process.pid), paysim.url, paysim.secretKey);
      const { code, stdout } = await runCli(["clock", "show", "--json"], { cwd: dir.dir, env: { PAYSIM_DB: ":memory:" } });
      expect(code).toBe(0);
      expect(JSON.parse(stdout).object).toBe("clock");
    } finally {
      dir.cleanup();
    }
  });

  it("exits 2 naming the record it looked for when PAYSIM_DB names a database with none", async () => {
    const dir = tempDir("paysim-norecord-");
    try {
      const db = join(dir.dir, "data", "paysim.db");
      const { code, stderr } = await runCli(["clock", "show"], { cwd: cwd.dir, env: { PAYSIM_DB: db } });
      expect(code).toBe(2);
      expect(stderr).toContain(`no record of ${db} in ${join(dir.dir, "data", "instance.json")}`);
    } finally {
      dir.cleanup();
    }
  });

  it("does not send instance.json's key to a server at another URL", async () => {
    const other = await startTestPaysim();
    const dir = tempDir("paysim-other-");
    try {
      writeInstance(registryEntryPath(dir.dir, process.pid), paysim.url, paysim.secretKey);
      const { code, stderr } = await runCli(["clock", "show", "--url", other.url], { cwd: dir.dir });
      expect(code).toBe(1);
      expect(stderr).toBe(`paysim: no secret key for ${other.url}: pass --key sk_test_… or set PAYSIM_SECRET_KEY.\n`);
    } finally {
      dir.cleanup();
      await other.dispose();
    }
  });

  it("exits 2 naming the URL and suggesting paysim start when nothing listens there", async () => {
    const gone = await startTestPaysim();
    const { url, secretKey } = gone;
    await gone.dispose();
    for (const args of [["clock", "show"], ["trigger", "payment_intent.created"], ["events", "list"]]) {
      const { code, stdout, stderr } = await runCli([...args, "--url", url, "--key", secretKey], { cwd: cwd.dir });
      expect(code).toBe(2);
      expect(stdout).toBe("");
      expect(stderr).toContain(`no paysim server reachable at ${url} (ECONNREFUSED)`);
      expect(stderr).toContain("`paysim start`");
    }
  });

  it("exits 2 when no server is known at all", async () => {
    const { code, stderr } = await runCli(["events", "list"], { cwd: cwd.dir });
    expect(code).toBe(2);
    expect(stderr).toBe(
      `paysim: no paysim server known: no --url, no PAYSIM_URL and no running paysim started from this folder (${join(cwd.dir, ".paysim", "instances")}). Run \`paysim start\` in this folder, or pass --url and --key.\n`,
    );
  });

  it("skips the entry of a server that is gone (killed without a clean stop) and exits 2", async () => {
    const dir = tempDir("paysim-gone-");
    try {
      // A pid no process has: the kernel's pid_max is far below it.
      writeInstanceFile(registryEntryPath(dir.dir, 2 ** 30), { url: paysim.url, secret_key: paysim.secretKey, db: ":memory:", pid: 2 ** 30, started_at: new Date().toISOString(), webhook_endpoints: [] });
      const { code, stderr } = await runCli(["clock", "show"], { cwd: dir.dir });
      expect(code).toBe(2);
      expect(stderr).toContain("no running paysim started from this folder");
    } finally {
      dir.cleanup();
    }
  });

  it("refuses a --url that is not a URL", async () => {
    const { code, stderr } = await runCli(["clock", "show", "--url", "localhost:7420", "--key", paysim.secretKey], { cwd: cwd.dir });
    expect(code).toBe(1);
    expect(stderr).toContain('"localhost:7420" is not an http(s) URL');
  });
});

import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { connect, type AddressInfo } from "node:net";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { registryEntryPath, writeInstanceFile } from "../../src/cli/instance-file.js";
import { runCli } from "../helpers/cli.js";
import { defer, usePaysimCli, useTempDir } from "../helpers/disposables.js";

/** Whether a connection to the URL's port is refused: nothing listens there any more. */
function refused(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    socket.once("connect", () => {
      socket.destroy();
      resolve(false);
    });
    socket.once("error", () => resolve(true));
  });
}

const pidOf = (started: { cli: { child: { pid?: number } } }) => started.cli.child.pid!;

/** Another program of this user's: `sleep 300`, killed when the test ends. */
function useSleeper(): ChildProcess {
  const sleeper = spawn("sleep", ["300"], { stdio: "ignore" });
  defer(() => sleeper.kill("SIGKILL"));
  return sleeper;
}

/** Whether `sleeper` was still alive, signalled by nobody: killed now, it dies of this SIGKILL, not an earlier SIGTERM. */
async function wasAlive(sleeper: ChildProcess): Promise<boolean> {
  const exited = once(sleeper, "exit");
  sleeper.kill("SIGKILL");
  const [, signal] = await exited;
  return signal === "SIGKILL";
}

/** Writes an entry into `dir`'s registry as a planter would: any pid, any URL, any token. */
function plantEntry(dir: string, entry: { pid: number; url: string; token?: string }): string {
  const path = join(dir, ".paysim", "instances", `${entry.pid}.json`);
  mkdirSync(join(dir, ".paysim", "instances"), { recursive: true });
  const file = { secret_key: "sk_test_planted", db: ":memory:", started_at: new Date().toISOString(), webhook_endpoints: [], ...entry };
  writeFileSync(path, JSON.stringify(file));
  return path;
}

describe("paysim stop", () => {
  it("stops the paysim started from this folder (in memory) as SIGTERM does, its export included, and returns once its port is closed", async () => {
    const dir = useTempDir("paysim-cli-stop-");
    const started = await usePaysimCli(["--db", ":memory:", "--export-on-exit", "after.db", "--no-ui"], { cwd: dir });
    const pid = pidOf(started);

    const stop = await runCli(["stop"], { cwd: dir });
    expect({ code: stop.code, stderr: stop.stderr }).toEqual({ code: 0, stderr: "" });
    expect(stop.stdout).toBe(`Stopped paysim pid ${pid} on port ${new URL(started.url).port} (${started.url}).\n`);
    // Already closed when stop returned: no wait needed.
    expect(await refused(started.url)).toBe(true);
    expect(existsSync(join(dir, "after.db"))).toBe(true);
    const ended = await started.cli.exit;
    expect(ended.code).toBe(0);
    expect(ended.stdout).toContain("paysim: SIGTERM received, stopping…");
    expect(readdirSync(join(dir, ".paysim", "instances"))).toEqual([]);
  });

  it("names the servers and refuses when several run, unless told which (a pid) or --all", async () => {
    const dir = useTempDir("paysim-cli-stop-");
    const first = await usePaysimCli(["--db", ":memory:", "--no-ui"], { cwd: dir });
    const second = await usePaysimCli(["--db", join(dir, "second.db"), "--no-ui"], { cwd: dir });
    const third = await usePaysimCli(["--db", ":memory:", "--no-ui"], { cwd: dir });

    const refusedStop = await runCli(["stop"], { cwd: dir });
    expect(refusedStop.code).toBe(1);
    expect(refusedStop.stdout).toBe("");
    expect(refusedStop.stderr).toMatch(
      /^paysim: 3 paysim servers started from .* are running; stop one with paysim stop <pid>, or all with paysim stop --all:\n/,
    );
    for (const started of [first, second, third]) expect(refusedStop.stderr).toContain(`  pid ${pidOf(started)}  ${started.url}  db `);
    expect(await refused(first.url)).toBe(false);

    const one = await runCli(["stop", String(pidOf(second))], { cwd: dir });
    expect({ code: one.code, stdout: one.stdout }).toEqual({
      code: 0,
      stdout: `Stopped paysim pid ${pidOf(second)} on port ${new URL(second.url).port} (${second.url}).\n`,
    });
    expect(await refused(second.url)).toBe(true);
    expect(await refused(first.url)).toBe(false);

    const all = await runCli(["stop", "--all"], { cwd: dir });
    expect(all.code).toBe(0);
    expect(all.stdout.split("\n").filter(Boolean).sort()).toEqual(
      [first, third].map((started) => `Stopped paysim pid ${pidOf(started)} on port ${new URL(started.url).port} (${started.url}).`).sort(),
    );
    expect(await refused(first.url)).toBe(true);
    expect(await refused(third.url)).toBe(true);
    expect((await first.cli.exit).code).toBe(0);
    expect((await third.cli.exit).code).toBe(0);
  });

  it("exits 1 naming why when none runs: nothing listed, or only the entry of a process that is gone", async () => {
    const dir = useTempDir("paysim-cli-stop-");
    const none = await runCli(["stop"], { cwd: dir });
    expect(none).toMatchObject({ code: 1, stdout: "" });
    expect(none.stderr).toBe(`paysim: no paysim started from ${dir} is running (none is listed in .paysim/instances/).\n`);

    // An entry a killed paysim left: its pid is no process's.
    const gone = await usePaysimCli(["--db", ":memory:", "--no-ui"], { cwd: dir });
    await gone.cli.stop("SIGKILL");
    expect(readdirSync(join(dir, ".paysim", "instances"))).toEqual([`${pidOf(gone)}.json`]);
    const stale = await runCli(["stop"], { cwd: dir });
    expect(stale).toMatchObject({ code: 1, stdout: "" });
    expect(stale.stderr).toBe(
      `paysim: removed .paysim/instances/${pidOf(gone)}.json, which names no paysim that runs: pid ${pidOf(gone)} is no longer running.\n` +
        `paysim: no paysim started from ${dir} is running (.paysim/instances/ listed 1 that is not running).\n`,
    );
    expect(readdirSync(join(dir, ".paysim", "instances"))).toEqual([]);
  });

  it("refuses a pid that is not one of this folder's servers, and a bad pid, saying why", async () => {
    const dir = useTempDir("paysim-cli-stop-");
    const started = await usePaysimCli(["--db", ":memory:", "--no-ui"], { cwd: dir });
    // An entry naming this test's own process: alive, but no paysim answers at its URL.
    writeInstanceFile(registryEntryPath(dir, process.pid), {
      url: "http://127.0.0.1:1",
      secret_key: "sk_test_x",
      db: ":memory:",
      pid: process.pid,
      started_at: new Date().toISOString(),
      webhook_endpoints: [],
    });
    const other = await runCli(["stop", String(process.pid)], { cwd: dir });
    expect(other.code).toBe(1);
    expect(other.stderr).toBe(
      `paysim: removed .paysim/instances/${process.pid}.json, which names no paysim that runs: it has no token (written by an earlier paysim, or not by paysim).\n` +
        `paysim: no paysim started from ${dir} runs as pid ${process.pid}; running:\n  pid ${pidOf(started)}  ${started.url}  db :memory:\n`,
    );
    const bad = await runCli(["stop", "abc"], { cwd: dir });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toBe('paysim stop: pid must be a process id (a positive integer); got "abc".\nsee paysim stop --help\n');
    expect(await refused(started.url)).toBe(false);
  });

  it("never signals a program an entry names but whose URL another folder's paysim answers: the entry is named and removed", async () => {
    const other = useTempDir("paysim-cli-stop-other-");
    const proj = useTempDir("paysim-cli-stop-proj-");
    const served = await usePaysimCli(["--db", ":memory:", "--no-ui"], { cwd: other });
    // The planter even copies the other paysim's token: the pid it answers is still its own.
    const token = JSON.parse(readFileSync(join(other, ".paysim", "instances", `${pidOf(served)}.json`), "utf8")).token as string;
    expect(token).toMatch(/^[0-9a-f]{32}$/);
    for (const args of [[], ["PID"], ["--all"]]) {
      const sleeper = useSleeper();
      const pid = sleeper.pid!;
      const path = plantEntry(proj, { pid, url: served.url, token });
      const stop = await runCli(["stop", ...args.map((arg) => (arg === "PID" ? String(pid) : arg))], { cwd: proj });
      expect({ code: stop.code, stdout: stop.stdout }).toEqual({ code: 1, stdout: "" });
      expect(stop.stderr).toBe(
        `paysim: removed .paysim/instances/${pid}.json, which names no paysim that runs: pid ${pid} is not the process listening on port ${new URL(served.url).port}.\n` +
          `paysim: no paysim started from ${proj} is running (.paysim/instances/ listed 1 that is not running).\n`,
      );
      expect(existsSync(path)).toBe(false);
      expect(await wasAlive(sleeper)).toBe(true);
    }
    expect(await refused(served.url)).toBe(false);
  });

  it("never signals a program an entry names on another program's /health claiming its pid, nor through a URL elsewhere", async () => {
    const dir = useTempDir("paysim-cli-stop-");
    const sleeper = useSleeper();
    const pid = sleeper.pid!;
    // Another local program answering /health as paysim would, naming the sleeper's pid to any token.
    const fake = createServer((_, res) => res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify({ status: "ok", pid })));
    await new Promise<void>((resolve) => fake.listen(0, "127.0.0.1", resolve));
    defer(() => new Promise((resolve) => fake.close(resolve)));
    const fakeUrl = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;

    plantEntry(dir, { pid, url: fakeUrl, token: "0".repeat(32) });
    const local = await runCli(["stop", String(pid)], { cwd: dir });
    expect(local.code).toBe(1);
    expect(local.stderr).toContain(
      `paysim: removed .paysim/instances/${pid}.json, which names no paysim that runs: pid ${pid} is not the process listening on port ${(fake.address() as AddressInfo).port}.\n`,
    );

    plantEntry(dir, { pid, url: "http://192.0.2.7:7420", token: "0".repeat(32) });
    const remote = await runCli(["stop"], { cwd: dir });
    expect(remote.code).toBe(1);
    expect(remote.stderr).toContain(`which names no paysim that runs: its URL http://192.0.2.7:7420 is not on this machine.\n`);
    expect(await wasAlive(sleeper)).toBe(true);
  });
});

import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, type StartedPaysim } from "../helpers/cli.js";
import { usePaysimCli, useTempDir } from "../helpers/disposables.js";
import { callApi } from "../helpers/paysim.js";

/**
 * How the commands find the server the user means when `paysim start` ran more than
 * once from one folder: every server here is the real binary, run from that folder.
 */

/** A fresh folder, removed when the test finishes. */
function folder(): string {
  return useTempDir("paysim-instances-");
}
/** `paysim start --no-ui` run from `cwd`, killed when the test finishes unless it has stopped already. */
function serving(cwd: string, args: string[] = []): Promise<StartedPaysim> {
  return usePaysimCli(["--no-ui", ...args], { cwd });
}

const mode = (path: string) => statSync(path).mode & 0o777;
const entries = (cwd: string) => (existsSync(join(cwd, ".paysim", "instances")) ? readdirSync(join(cwd, ".paysim", "instances")).sort() : []);

/** Runs `paysim trigger payment_intent.created --json` from `cwd` and answers the event it made, and the CLI's stderr. */
async function triggerFrom(cwd: string, args: string[] = []): Promise<{ eventId: string; stderr: string }> {
  const { code, stdout, stderr } = await runCli(["trigger", "payment_intent.created", "--json", ...args], { cwd });
  expect(code, stderr).toBe(0);
  return { eventId: JSON.parse(stdout).event.id, stderr };
}

/** Whether the event is on that server (each server has its own key and data: a 200 proves which one the CLI reached). */
async function hasEvent(server: StartedPaysim, eventId: string): Promise<boolean> {
  return (await callApi(server.url, server.key, "GET", `/v1/events/${eventId}`)).status === 200;
}

describe("a throwaway run beside the real server", () => {
  it("does not take the CLI over: after a --db :memory: run on another port stops, the commands still reach the first server", async () => {
    const cwd = folder();
    const before = new Date().toISOString();
    const real = await serving(cwd);
    const record = readFileSync(join(cwd, ".paysim", "instance.json"), "utf8");
    // The entry says when the server started by the wall clock: "the first started" is read from it.
    const startedAt = String(JSON.parse(readFileSync(join(cwd, ".paysim", "instances", `${real.cli.child.pid}.json`), "utf8")).started_at);
    expect(startedAt >= before && startedAt <= new Date().toISOString(), startedAt).toBe(true);

    const throwaway = await serving(cwd, ["--db", ":memory:"]);
    expect(throwaway.url).not.toBe(real.url);
    // The throwaway has its own registry entry and leaves the real database's record alone.
    expect(entries(cwd)).toEqual([`${real.cli.child.pid}.json`, `${throwaway.cli.child.pid}.json`].sort());
    expect(readFileSync(join(cwd, ".paysim", "instance.json"), "utf8")).toBe(record);

    expect((await throwaway.cli.stop("SIGTERM")).code).toBe(0);
    // A clean stop removes its entry.
    expect(entries(cwd)).toEqual([`${real.cli.child.pid}.json`]);

    const { code, stdout } = await runCli(["clock", "show", "--json"], { cwd });
    expect(code).toBe(0);
    expect(JSON.parse(stdout).object).toBe("clock");
    const { eventId, stderr } = await triggerFrom(cwd);
    expect(await hasEvent(real, eventId)).toBe(true);
    expect(stderr).toBe("");
  });

  it("with both running, uses the first started, says so on stderr and names the other's --url, which picks it", async () => {
    const cwd = folder();
    const first = await serving(cwd);
    const second = await serving(cwd, ["--db", ":memory:"]);

    const used = await triggerFrom(cwd);
    expect(await hasEvent(first, used.eventId)).toBe(true);
    expect(used.stderr).toContain(
      `paysim: 2 paysim servers started from this folder are running; using the first started, ${first.url} (pid ${first.cli.child.pid}, database ${join(cwd, ".paysim", "paysim.db")}`,
    );
    expect(used.stderr).toContain("To use another, pass its --url:");
    expect(used.stderr).toContain(`--url ${second.url}   (pid ${second.cli.child.pid}, database :memory:`);

    // --url alone is enough: the key comes from that server's entry.
    const picked = await triggerFrom(cwd, ["--url", second.url]);
    expect(await hasEvent(second, picked.eventId)).toBe(true);
    expect(await hasEvent(first, picked.eventId)).toBe(false);
    expect(picked.stderr).toBe("");
  });

  it("skips a server killed without a clean stop, and the next start removes its stale entry", async () => {
    const cwd = folder();
    const killed = await serving(cwd, ["--db", ":memory:"]);
    const killedPid = killed.cli.child.pid;
    await killed.cli.stop("SIGKILL");
    expect(entries(cwd)).toEqual([`${killedPid}.json`]);

    const gone = await runCli(["clock", "show"], { cwd });
    expect(gone.code).toBe(2);
    expect(gone.stderr).toContain("no running paysim started from this folder");

    const next = await serving(cwd, ["--db", ":memory:"]);
    expect(entries(cwd)).toEqual([`${next.cli.child.pid}.json`]);
    const { eventId } = await triggerFrom(cwd);
    expect(await hasEvent(next, eventId)).toBe(true);
  });
});

describe("a database elsewhere", () => {
  it("is found from the folder start ran in, without PAYSIM_DB; its record (0600) sits beside the database and keeps the key for the next start", async () => {
    const cwd = folder();
    const elsewhere = folder();
    const db = join(elsewhere, "data", "a.db");
    const first = await serving(cwd, ["--db", db]);

    const { eventId } = await triggerFrom(cwd);
    expect(await hasEvent(first, eventId)).toBe(true);

    const entry = join(cwd, ".paysim", "instances", `${first.cli.child.pid}.json`);
    const recordPath = join(elsewhere, "data", "instance.json");
    expect([mode(entry), mode(recordPath)]).toEqual([0o600, 0o600]);
    expect(JSON.parse(readFileSync(recordPath, "utf8"))).toMatchObject({ url: first.url, secret_key: first.key, db, pid: first.cli.child.pid });
    expect(existsSync(join(cwd, ".paysim", "instance.json"))).toBe(false);

    expect((await first.cli.stop("SIGTERM")).code).toBe(0);
    const again = await serving(folder(), ["--db", db]);
    expect(again.key).toBe(first.key);
  });

  it("does not hand one database's remembered key to another database in the same folder", async () => {
    const dir = folder();
    const a = await serving(dir, ["--db", join(dir, "a.db")]);
    expect((await a.cli.stop("SIGTERM")).code).toBe(0);
    const b = await serving(dir, ["--db", join(dir, "b.db")]);
    expect(b.key).not.toBe(a.key);
  });

  it("a :memory: run writes no database record and generates its own key", async () => {
    const cwd = folder();
    const real = await serving(cwd);
    expect((await real.cli.stop("SIGTERM")).code).toBe(0);
    const throwaway = await serving(cwd, ["--db", ":memory:"]);
    expect(throwaway.key).not.toBe(real.key);
    expect(JSON.parse(readFileSync(join(cwd, ".paysim", "instance.json"), "utf8")).secret_key).toBe(real.key);
  });
});

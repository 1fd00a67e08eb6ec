import { spawn } from "node:child_process";
import { lstatSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PAYSIM_BIN, cliEnv, runCli, startCli } from "../helpers/cli.js";
import { defer, useTempDir } from "../helpers/disposables.js";

const VICTIM = "the victim's own text\n";

/** What a path is now: a regular file's mode, or a link. */
const kind = (path: string) => {
  const stats = lstatSync(path);
  return stats.isSymbolicLink() ? "link" : stats.isFile() ? `file ${(stats.mode & 0o777).toString(8)}` : "other";
};

/**
 * `paysim start` run by a shell that first puts a link at `.paysim/instances/<its pid>.json`, then
 * becomes paysim (exec keeps the pid): the entry paysim writes is where the link already is.
 * Resolves once paysim serves, with its pid and a way to stop it.
 */
async function startAfterPlantingEntryLink(dir: string, target: string): Promise<{ pid: number; stop: () => Promise<number | null> }> {
  const script = `mkdir -p .paysim/instances && ln -s "$1" ".paysim/instances/$$.json" && shift && exec "$@"`;
  const child = spawn("sh", ["-c", script, "sh", target, process.execPath, PAYSIM_BIN, "start", "--port", "0", "--no-ui"], {
    cwd: dir,
    env: cliEnv(),
    stdio: ["ignore", "pipe", "inherit"],
  });
  defer(() => child.kill("SIGKILL"));
  const exit = new Promise<number | null>((resolve) => child.on("close", resolve));
  let stdout = "";
  child.stdout.setEncoding("utf8");
  for await (const chunk of child.stdout) {
    stdout += chunk;
    if (/^ {2}database /m.test(stdout)) break;
  }
  if (!/^ {2}database /m.test(stdout)) throw new Error(`paysim exited before serving: ${stdout}`);
  child.stdout.resume();
  return { pid: child.pid!, stop: () => (child.kill("SIGTERM"), exit) };
}

describe("the instance files paysim start writes", () => {
  it("never writes through a link at .paysim/instance.json or .paysim/instances/<pid>.json: each link is replaced by the file, mode 0600", async () => {
    const root = useTempDir("paysim-cli-links-");
    const proj = join(root, "proj");
    mkdirSync(join(proj, ".paysim"), { recursive: true });
    for (const name of ["victim.txt", "victim-entry.txt"]) writeFileSync(join(root, name), VICTIM, { mode: 0o644 });
    symlinkSync("../../victim.txt", join(proj, ".paysim", "instance.json"));

    const { pid, stop } = await startAfterPlantingEntryLink(proj, "../../../victim-entry.txt");
    const entry = join(proj, ".paysim", "instances", `${pid}.json`);
    expect({ record: kind(join(proj, ".paysim", "instance.json")), entry: kind(entry) }).toEqual({ record: "file 600", entry: "file 600" });
    expect(JSON.parse(readFileSync(entry, "utf8")).pid).toBe(pid);
    expect(JSON.parse(readFileSync(join(proj, ".paysim", "instance.json"), "utf8")).pid).toBe(pid);
    for (const name of ["victim.txt", "victim-entry.txt"]) {
      expect(readFileSync(join(root, name), "utf8")).toBe(VICTIM);
      expect(kind(join(root, name))).toBe("file 644");
    }
    expect(await stop()).toBe(0);
  });

  it("never writes through a link at the instance.json beside a --db", async () => {
    const root = useTempDir("paysim-cli-links-");
    mkdirSync(join(root, "proj", "data"), { recursive: true });
    writeFileSync(join(root, "victim.txt"), VICTIM, { mode: 0o644 });
    symlinkSync("../../victim.txt", join(root, "proj", "data", "instance.json"));
    const cli = startCli(["start", "--port", "0", "--no-ui", "--db", "data/shop.db"], { cwd: join(root, "proj") });
    defer(() => cli.stop("SIGKILL"));
    await cli.waitFor(/^ {2}database /m);
    expect(kind(join(root, "proj", "data", "instance.json"))).toBe("file 600");
    expect(readFileSync(join(root, "victim.txt"), "utf8")).toBe(VICTIM);
    expect((await cli.stop()).code).toBe(0);
  });

  it("refuses to start when .paysim or .paysim/instances is a link to a folder elsewhere, naming it", async () => {
    const root = useTempDir("paysim-cli-links-");
    mkdirSync(join(root, "proj"));
    mkdirSync(join(root, "elsewhere", "instances"), { recursive: true });
    symlinkSync("../elsewhere", join(root, "proj", ".paysim"));
    const linked = await runCli(["start", "--port", "0", "--no-ui", "--db", ":memory:"], { cwd: join(root, "proj") });
    expect({ code: linked.code, stdout: linked.stdout }).toEqual({ code: 1, stdout: "" });
    expect(linked.stderr).toBe(
      `paysim: ${join(root, "proj", ".paysim")} is a symbolic link; paysim keeps its instance files (they hold the key) only in a real folder. Remove the link.\n`,
    );

    const inner = join(root, "inner");
    mkdirSync(join(inner, ".paysim"), { recursive: true });
    symlinkSync("../../elsewhere/instances", join(inner, ".paysim", "instances"));
    const innerLinked = await runCli(["start", "--port", "0", "--no-ui", "--db", ":memory:"], { cwd: inner });
    expect(innerLinked.code).toBe(1);
    expect(innerLinked.stderr).toContain(`${join(inner, ".paysim", "instances")} is a symbolic link`);
  });
});

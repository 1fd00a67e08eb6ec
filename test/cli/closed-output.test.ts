import { execFileSync, spawn } from "node:child_process";
import { closeSync, constants, existsSync, openSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { PAYSIM_BIN, cliEnv } from "../helpers/cli.js";
import { suiteScope, usePaysim, useTempDir } from "../helpers/disposables.js";
import { createIntent, type TestPaysim } from "../helpers/paysim.js";

/**
 * A pipe whose read end is already closed, as `paysim … | head -1` leaves it once head is done,
 * without the race of a real head: the first write paysim makes meets no reader, every time.
 */
function pipeWithNoReader(dir: string): number {
  const fifo = join(dir, `pipe-${Math.random().toString(36).slice(2)}`);
  execFileSync("mkfifo", [fifo]);
  const readEnd = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
  const writeEnd = openSync(fifo, constants.O_WRONLY);
  closeSync(readEnd);
  return writeEnd;
}

interface Ended {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** The stream that was not the closed pipe. */
  other: string;
}

/** Runs `paysim <args>` with stdout (or stderr) into a pipe nobody reads, and the other stream captured. */
function runIntoClosedPipe(args: readonly string[], dir: string, closed: "stdout" | "stderr" = "stdout"): Promise<Ended> {
  const pipe = pipeWithNoReader(dir);
  const stdio: ["ignore", number | "pipe", number | "pipe"] = closed === "stdout" ? ["ignore", pipe, "pipe"] : ["ignore", "pipe", pipe];
  const child = spawn(process.execPath, [PAYSIM_BIN, ...args], { cwd: dir, env: cliEnv(), stdio });
  closeSync(pipe);
  let other = "";
  const captured = closed === "stdout" ? child.stderr! : child.stdout!;
  captured.setEncoding("utf8").on("data", (chunk: string) => (other += chunk));
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code, signal, other }));
  });
}

describe("output into a reader that has gone", () => {
  const suite = suiteScope();
  let paysim: TestPaysim;
  let dir: string;
  beforeAll(async () => {
    dir = useTempDir("paysim-closed-output-", suite);
    paysim = await usePaysim({}, suite);
    for (let i = 0; i < 30; i++) await createIntent(paysim, { amount: 1000 + i });
  });
  const server = () => ["--url", paysim.url, "--key", paysim.secretKey];

  const named = (commands: string[][]) => commands.map((args) => [args.join(" "), args] as const);

  it.each(named([["--help"], ["--version"], ["faults", "add", "--help"], ["start", "--help"], ["instances", "create", "--help"]]))(
    "paysim %s ends quietly with status 0",
    async (_name, args) => {
      expect(await runIntoClosedPipe(args, dir)).toEqual({ code: 0, signal: null, other: "" });
    },
  );

  it.each(named([["events", "list"], ["events", "list", "--json"], ["coverage"]]))("paysim %s ends quietly with status 0", async (_name, args) => {
    expect(await runIntoClosedPipe([...args, ...server()], dir)).toEqual({ code: 0, signal: null, other: "" });
  });

  it("keeps a refused command's status when its error has no reader", async () => {
    expect(await runIntoClosedPipe(["events", "get", "evt_nothing", ...server()], dir, "stderr")).toEqual({ code: 1, signal: null, other: "" });
  });

  it("stops paysim start --json cleanly, status 0: the export written and its registry entry removed", async () => {
    const runDir = useTempDir("paysim-closed-start-");
    const exported = join(runDir, "after.db");
    const ended = await runIntoClosedPipe(["start", "--json", "--port", "0", "--db", ":memory:", "--export-on-exit", exported], runDir);
    expect(ended).toEqual({ code: 0, signal: null, other: "" });
    expect(existsSync(exported)).toBe(true);
    expect(readdirSync(join(runDir, ".paysim", "instances"))).toEqual([]);
  });
});

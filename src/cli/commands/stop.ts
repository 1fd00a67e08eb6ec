import { connect as connectSocket } from "node:net";
import { relative } from "node:path";
import { Command, Option } from "commander";
import { CliError, UsageError } from "../client.js";
import { pidAlive, registryEntries, removeInstanceFile, type InstanceFile } from "../instance-file.js";
import { proveInstance } from "../instance-proof.js";
import { consoleOutput, type Output } from "../output.js";

/** How long a stop may take (its --export-on-exit snapshot included) before `paysim stop` gives up waiting: a guard for a hung process. */
const STOP_TIMEOUT_MS = 120_000;
/** How often a stopping server's port and process are looked at again. */
const POLL_MS = 25;

/** The port of a server's URL. */
const portOf = (file: InstanceFile) => new URL(file.url).port;

/** One line naming a running server: its pid, URL and database. */
const described = (file: InstanceFile) => `pid ${file.pid}  ${file.url}  db ${file.db}`;

/** Whether nothing accepts connections at the URL's host and port any more. */
function portClosed(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connectSocket(Number(port), hostname.replace(/^\[|\]$/g, ""));
    socket.once("connect", () => {
      socket.destroy();
      resolve(false);
    });
    socket.once("error", () => resolve(true));
  });
}

/** Resolves once the server's port is closed and its process gone; rejects after STOP_TIMEOUT_MS. */
async function stopped(file: InstanceFile): Promise<void> {
  const timedOut = AbortSignal.timeout(STOP_TIMEOUT_MS);
  while (!(await portClosed(file.url)) || pidAlive(file.pid)) {
    if (timedOut.aborted) throw new CliError(`paysim (pid ${file.pid}, ${file.url}) is still running ${STOP_TIMEOUT_MS / 1000} s after SIGTERM.`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/**
 * The servers started from `cwd` that run now: listed in `.paysim/instances/`, each proved to be
 * the paysim its entry names (instance-proof.ts). Any other entry (left by a killed paysim, whose
 * pid the system may since have given to another program, or planted) is named and removed,
 * never signalled. Answers the running ones and how many entries were removed.
 */
async function runningFrom(cwd: string, output: Output): Promise<{ running: InstanceFile[]; stale: number }> {
  const entries = registryEntries(cwd);
  const proofs = await Promise.all(entries.map((entry) => proveInstance(entry.file)));
  const running: InstanceFile[] = [];
  entries.forEach((entry, i) => {
    const proof = proofs[i]!;
    if (proof.proved) return void running.push(entry.file);
    removeInstanceFile(entry.path);
    output.error(`paysim: removed ${relative(cwd, entry.path)}, which names no paysim that runs: ${proof.why}.`);
  });
  running.sort((a, b) => String(a.started_at).localeCompare(String(b.started_at)) || a.pid - b.pid);
  return { running, stale: entries.length - running.length };
}

/** `paysim stop [--all | <pid>]`: stops the paysim started from this folder as SIGTERM does (docs/cli.md). */
export function stopCommand(output: Output = consoleOutput): Command {
  return new Command("stop")
    .description("Stop the paysim started from this folder, as SIGTERM does, and return once its port is closed")
    .argument("[pid]", "the pid of the one to stop, when several run from this folder")
    .addOption(new Option("--all", "stop every paysim started from this folder").default(false))
    .addHelpText(
      "after",
      `
Finds the paysim servers started from this folder through .paysim/instances/ (whatever
their --db, :memory: included), sends SIGTERM (an --export-on-exit snapshot is written as
on Ctrl-C), and returns once the port is closed and the process gone. With several running,
name one by its pid, or pass --all. Exits 1, saying why, when none runs.

Examples:
  $ paysim stop
  $ paysim stop 48213
  $ paysim stop --all`,
    )
    .action(async (pid: string | undefined, flags: { all: boolean }) => {
      const cwd = process.cwd();
      if (pid !== undefined && flags.all) throw new UsageError("give a pid or --all, not both.");
      if (pid !== undefined && !/^[1-9]\d{0,9}$/.test(pid)) throw new UsageError(`pid must be a process id (a positive integer); got "${pid}".`);
      const { running, stale } = await runningFrom(cwd, output);
      if (running.length === 0) {
        const why = stale > 0 ? `.paysim/instances/ listed ${stale} that ${stale === 1 ? "is" : "are"} not running` : "none is listed in .paysim/instances/";
        throw new CliError(`no paysim started from ${cwd} is running (${why}).`);
      }
      let chosen = running;
      if (pid !== undefined) {
        chosen = running.filter((file) => file.pid === Number(pid));
        if (chosen.length === 0)
          throw new CliError(
            `no paysim started from ${cwd} runs as pid ${pid}; running:`,
            1,
            running.map((file) => `  ${described(file)}`),
          );
      } else if (!flags.all && running.length > 1) {
        throw new CliError(
          `${running.length} paysim servers started from ${cwd} are running; stop one with paysim stop <pid>, or all with paysim stop --all:`,
          1,
          running.map((file) => `  ${described(file)}`),
        );
      }
      for (const file of chosen) {
        try {
          process.kill(file.pid, "SIGTERM");
        } catch (error) {
          // It stopped on its own between the look and the signal: stopped all the same.
          if ((error as NodeJS.ErrnoException).code !== "ESRCH") throw error;
        }
      }
      await Promise.all(chosen.map(stopped));
      for (const file of chosen) output.line(`Stopped paysim pid ${file.pid} on port ${portOf(file)} (${file.url}).`);
    });
}

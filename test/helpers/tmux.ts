import { execFile, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { cliEnv } from "./cli.js";

const run = promisify(execFile);

/** Fails with what to do when tmux is missing: these tests need a real terminal, and CI installs it. */
export function requireTmux(): void {
  const probe = spawnSync("tmux", ["-V"], { encoding: "utf8" });
  if (probe.error || probe.status !== 0) {
    throw new Error(
      "tmux is not installed: the live view's terminal tests run the real `paysim start` in tmux and read its screen. " +
        "Install it (Debian: apt-get install tmux); .ci/run installs it on CI.",
    );
  }
}

export interface TmuxOptions {
  columns: number;
  rows: number;
  cwd?: string;
  /** Added to the environment (`undefined` removes a variable), as for the CLI helpers. */
  env?: Record<string, string | undefined>;
}

export interface WaitForScreenOptions {
  /** Search the scrollback too, not only the visible screen. */
  history?: boolean;
  /** Guard against a hung test, not a timing assertion. Default 30 s. */
  timeoutMs?: number;
}

/** A program running in a tmux pane of its own: its screen can be read and keys typed into it. */
export interface TmuxTerminal {
  /** The visible screen, each line without trailing spaces. */
  screen(): Promise<string>;
  /** The scrollback followed by the visible screen. */
  history(): Promise<string>;
  /** Resolves with the screen (or history) once `predicate` holds for it; fails with the last one read if it never does. */
  waitForScreen(predicate: (screen: string) => boolean, what: string, options?: WaitForScreenOptions): Promise<string>;
  /** Types keys, in tmux's key names ("q", "C-c", "Enter"). */
  sendKeys(...keys: string[]): Promise<void>;
  resize(columns: number, rows: number): Promise<void>;
  /** Resolves with the program's exit status once it has exited. */
  waitForExit(timeoutMs?: number): Promise<number>;
  /** Ends the session and its program, and the private tmux server. Safe to call twice. */
  kill(): Promise<void>;
}

let sessions = 0;

/**
 * Runs `command` in a detached tmux session of `columns` × `rows`, on a tmux
 * server of its own (its own socket), so that nothing depends on, or
 * disturbs, another tmux. The pane stays after the program exits, to read its
 * exit status.
 *
 * @example
 * const terminal = await startInTmux([process.execPath, PAYSIM_BIN, "start"], { columns: 140, rows: 40 });
 * await terminal.waitForScreen((s) => s.includes("q to quit"), "the status line");
 */
export async function startInTmux(command: readonly string[], options: TmuxOptions): Promise<TmuxTerminal> {
  requireTmux();
  const dir = mkdtempSync(join(tmpdir(), "paysim-tmux-"));
  const socket = join(dir, "socket");
  const config = join(dir, "tmux.conf");
  // No user configuration; panes remain after their program ends; enough scrollback for a burst.
  writeFileSync(config, "set -g remain-on-exit on\nset -g history-limit 20000\nset -g status off\n");
  const session = `paysim-${process.pid}-${++sessions}`;
  // Ink draws only finished lines when it believes it runs in CI: the program must see a developer's terminal.
  const env = cliEnv({ CI: undefined, CONTINUOUS_INTEGRATION: undefined, TMUX: undefined, TMUX_PANE: undefined, NO_COLOR: undefined, ...options.env });
  const tmux = async (...args: string[]) => (await run("tmux", ["-S", socket, "-f", config, ...args], { env, encoding: "utf8" })).stdout;

  // The program's exit status is written to a file by a shell around it: tmux's own
  // #{pane_dead_status} stays empty when it reads the pane's end before the process's (tmux 3.3a).
  const statusFile = join(dir, "exit-status");
  const wrapped = ["sh", "-c", `"$0" "$@"; echo "$?" > '${statusFile}'`, ...command];
  await tmux(
    "new-session",
    "-d",
    "-s",
    session,
    "-x",
    String(options.columns),
    "-y",
    String(options.rows),
    ...(options.cwd ? ["-c", options.cwd] : []),
    "--",
    ...wrapped,
  );
  const target = `${session}:0.0`;

  const capture = async (withHistory: boolean) => {
    const text = await tmux("capture-pane", "-p", "-t", target, ...(withHistory ? ["-S", "-", "-E", "-"] : []));
    return text
      .split("\n")
      .map((line) => line.trimEnd())
      .join("\n")
      .replace(/\n+$/, "");
  };

  let killed = false;
  const terminal: TmuxTerminal = {
    screen: () => capture(false),
    history: () => capture(true),
    async waitForScreen(predicate, what, waitOptions = {}) {
      const deadline = Date.now() + (waitOptions.timeoutMs ?? 30_000);
      for (;;) {
        const last = await capture(waitOptions.history ?? false);
        if (predicate(last)) return last;
        if (Date.now() > deadline) throw new Error(`the terminal never showed ${what}; it shows:\n${last}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    async sendKeys(...keys) {
      await tmux("send-keys", "-t", target, ...keys);
    },
    async resize(columns, rows) {
      await tmux("resize-window", "-t", session, "-x", String(columns), "-y", String(rows));
    },
    async waitForExit(timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const status = readStatus(statusFile);
        // The shell reports a program ended by signal n as 128 + n.
        if (status !== undefined && status > 128)
          throw new Error(`the program in ${session} was ended by signal ${status - 128}; it shows:\n${await capture(false)}`);
        if (status !== undefined) return status;
        if (Date.now() > deadline) throw new Error(`the program in ${session} has not exited; it shows:\n${await capture(false)}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    async kill() {
      if (killed) return;
      killed = true;
      await tmux("kill-session", "-t", session).catch(() => undefined);
      await tmux("kill-server").catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return terminal;
}

/** The exit status the wrapping shell wrote, once it has written all of it. */
function readStatus(path: string): number | undefined {
  try {
    const text = readFileSync(path, "utf8");
    return text.endsWith("\n") ? Number(text.trim()) : undefined;
  } catch {
    return undefined;
  }
}

import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** The real launcher: it runs dist/, so `npm run build` must have run. */
export const PAYSIM_BIN = fileURLToPath(new URL("../../bin/paysim.js", import.meta.url));
const BUILT_MAIN = fileURLToPath(new URL("../../dist/cli/main.js", import.meta.url));

export interface CliOptions {
  cwd?: string;
  /** Added to the environment; `undefined` removes a variable. PAYSIM_* variables of the test process are never passed on. */
  env?: Record<string, string | undefined>;
}

export interface CliResult {
  /** The exit code, or null when a signal ended the process. */
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface WaitOptions {
  /** Which output to search; default stdout. */
  stream?: "stdout" | "stderr";
  /** Guard against a hung child, not a timing assertion. Default 20 s. */
  timeoutMs?: number;
}

/** A running `paysim …` child process. */
export interface CliHandle {
  readonly child: ChildProcess;
  /** Everything printed so far. */
  stdout(): string;
  stderr(): string;
  /** Resolves with the first match of `pattern` in the output (already printed or still to come); rejects if the process exits first. */
  waitFor(pattern: RegExp, options?: WaitOptions): Promise<RegExpMatchArray>;
  /** Sends `signal` (default SIGTERM) unless the process has already exited, and resolves once it has. */
  stop(signal?: NodeJS.Signals): Promise<CliResult>;
  /** Settles when the process exits. */
  readonly exit: Promise<CliResult>;
}

/** Children still running, killed if the test process goes away first. */
const live = new Set<ChildProcess>();
process.on("exit", () => {
  for (const child of live) child.kill("SIGKILL");
});

/**
 * The environment a child gets: the test process's, without PAYSIM_*, forced colours or
 * GITHUB_STEP_SUMMARY (a `paysim exec` under test would append to the CI's own job summary), plus `extra`.
 */
export function cliEnv(extra: Record<string, string | undefined> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value !== undefined && !name.startsWith("PAYSIM_") && name !== "FORCE_COLOR" && name !== "GITHUB_STEP_SUMMARY") env[name] = value;
  }
  env.NO_COLOR = "1";
  for (const [name, value] of Object.entries(extra)) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  return env;
}

/**
 * Starts `paysim <args>` as a child process (no TTY) and returns a handle to watch and stop it.
 *
 * @example
 * const cli = startCli(["start", "--port", "0", "--db", dbPath]);
 * const [, url] = await cli.waitFor(/listening on (http:\S+)/);
 * const { code } = await cli.stop("SIGINT");
 */
export function startCli(args: readonly string[], options: CliOptions = {}): CliHandle {
  if (!existsSync(BUILT_MAIN)) throw new Error(`${BUILT_MAIN} is missing: run \`npm run build\` before the CLI tests.`);
  const child = spawn(process.execPath, [PAYSIM_BIN, ...args], { cwd: options.cwd, env: cliEnv(options.env), stdio: ["ignore", "pipe", "pipe"] });
  live.add(child);
  const output = { stdout: "", stderr: "" };
  const listeners = new Set<() => void>();
  const notify = () => {
    for (const listener of [...listeners]) listener();
  };
  child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
    output.stdout += chunk;
    notify();
  });
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => {
    output.stderr += chunk;
    notify();
  });
  let exited = false;
  const exit = new Promise<CliResult>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code, signal) => {
      exited = true;
      live.delete(child);
      notify();
      resolve({ code, signal, stdout: output.stdout, stderr: output.stderr });
    });
  });

  function waitFor(pattern: RegExp, { stream = "stdout", timeoutMs = 20_000 }: WaitOptions = {}): Promise<RegExpMatchArray> {
    return new Promise((resolve, reject) => {
      const describe = () => `${pattern} in ${stream}\n--- stdout ---\n${output.stdout}\n--- stderr ---\n${output.stderr}`;
      const done = () => {
        listeners.delete(check);
        clearTimeout(timer);
      };
      const check = () => {
        const match = output[stream].match(pattern);
        if (match) {
          done();
          resolve(match);
        } else if (exited) {
          done();
          reject(new Error(`paysim exited (code ${child.exitCode}, signal ${child.signalCode}) before printing ${describe()}`));
        }
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`timed out after ${timeoutMs} ms waiting for ${describe()}`));
      }, timeoutMs);
      listeners.add(check);
      check();
    });
  }

  return {
    child,
    stdout: () => output.stdout,
    stderr: () => output.stderr,
    waitFor,
    stop(signal: NodeJS.Signals = "SIGTERM") {
      if (!exited) child.kill(signal);
      return exit;
    },
    exit,
  };
}

/**
 * Runs `paysim <args>` to completion.
 *
 * @example
 * const { code, stderr } = await runCli(["start", "--secret-key", "nope"]);
 */
export function runCli(args: readonly string[], options: CliOptions = {}): Promise<CliResult> {
  return startCli(args, options).exit;
}

/** A `paysim start` child that is serving, with the URL and default key its banner printed. */
export interface StartedPaysim {
  cli: CliHandle;
  url: string;
  key: string;
}

/**
 * Starts `paysim start --port 0 <args>` and waits for its whole banner (up to the database line).
 *
 * @example
 * const { cli, url, key } = await startPaysimCli(["--db", dbPath]);
 */
export async function startPaysimCli(args: readonly string[] = [], options: CliOptions = {}): Promise<StartedPaysim> {
  const cli = startCli(["start", "--port", "0", ...args], options);
  try {
    const [, url] = await cli.waitFor(/listening on (http:\/\/\S+)/);
    const [, key] = await cli.waitFor(/^ {2}key {7}(sk_test_\S+)$/m);
    await cli.waitFor(/^ {2}database /m);
    return { cli, url: url!, key: key! };
  } catch (error) {
    await cli.stop("SIGKILL");
    throw error;
  }
}

import { join } from "node:path";
import { afterAll, onTestFinished } from "vitest";
import { startPaysim, type RunningPaysim, type StartPaysimOptions } from "../../src/index.js";
import { createPaysim, wholeSchema, type PaysimInstance, type PaysimOptions } from "../../src/paysim.js";
import { openDatabase, type Db } from "../../src/store/open.js";
import type { Migration } from "../../src/store/schema.js";
import { startCli, startPaysimCli, type CliHandle, type CliOptions, type StartedPaysim } from "./cli.js";
import { startTestPaysim, startTestPaysimApp, tempDir, type TestPaysim } from "./paysim.js";
import { startReceiver, type Behaviour, type ChooseBehaviour, type Receiver } from "./receiver.js";
import { startInTmux, type TmuxOptions, type TmuxTerminal } from "./tmux.js";

/**
 * The one way tests release what they start. Every `use*` helper below registers
 * its own cleanup in a scope, so no test stops, closes or removes anything by
 * hand and nothing outlives a failed assertion:
 *
 * - in a test (or its `beforeEach`), the default scope `thisTest` releases it when
 *   that test finishes, passed or failed (vitest's `onTestFinished`);
 * - a resource shared by a suite's tests is made in its `beforeAll` with a scope
 *   from `suiteScope()`, and released after the suite's last test.
 *
 * Cleanups run newest first (a paysim before the receiver it delivers to), each
 * one even when an earlier one threw.
 *
 * @example
 * it("delivers", async () => {
 *   const receiver = await useReceiver(200);
 *   const paysim = await usePaysim({ forwardTo: receiver.url });
 * });
 *
 * @example
 * const suite = suiteScope();
 * let paysim: TestPaysim;
 * beforeAll(async () => {
 *   paysim = await usePaysim({}, suite);
 * });
 */

/** Releases one thing: stops an instance, closes a server, removes a folder. */
export type Cleanup = () => unknown;

/** How long the resources registered in it live. */
export interface Scope {
  defer(cleanup: Cleanup): void;
}

/** The running test: released when it finishes, passed or failed. Only usable inside a test or a `beforeEach`. */
export const thisTest: Scope = {
  defer(cleanup) {
    onTestFinished(async () => {
      await cleanup();
    });
  },
};

/**
 * A scope released after the last test of the suite it is created in. Create it
 * while the suite is collected (a `describe` body, or a file's top level) and
 * fill it from that suite's `beforeAll`.
 */
export function suiteScope(): Scope {
  const cleanups: Cleanup[] = [];
  afterAll(async () => {
    const errors: unknown[] = [];
    for (const cleanup of cleanups.splice(0).reverse()) {
      try {
        await cleanup();
      } catch (error) {
        errors.push(error);
      }
    }
    if (errors.length === 1) throw errors[0];
    if (errors.length > 1) throw new AggregateError(errors, `${errors.length} cleanups of a suite failed`);
  });
  return { defer: (cleanup) => void cleanups.push(cleanup) };
}

/** Registers `cleanup` in `scope` (the running test by default). */
export function defer(cleanup: Cleanup, scope: Scope = thisTest): void {
  scope.defer(cleanup);
}

/** A fresh temporary folder, removed with its scope. */
export function useTempDir(prefix = "paysim-test-", scope: Scope = thisTest): string {
  const { dir, cleanup } = tempDir(prefix);
  scope.defer(cleanup);
  return dir;
}

/** A path `name` in a fresh temporary folder (nothing is created at the path itself), removed with its scope. */
export function useTempPath(name = "paysim.db", prefix = "paysim-test-", scope: Scope = thisTest): string {
  return join(useTempDir(prefix, scope), name);
}

/** `startTestPaysim` (real HTTP on 127.0.0.1, a real SQLite file), stopped and its folder removed with its scope. */
export async function usePaysim(options: PaysimOptions = {}, scope: Scope = thisTest): Promise<TestPaysim> {
  const paysim = await startTestPaysim(options);
  scope.defer(() => paysim.dispose());
  return paysim;
}

/** `createPaysim` (the wiring itself, on a free port unless told), closed with its scope; closing it again is harmless. */
export async function useCreatedPaysim(options: PaysimOptions = {}, scope: Scope = thisTest): Promise<PaysimInstance> {
  const instance = await createPaysim({ port: 0, ...options });
  scope.defer(() => instance.close());
  return instance;
}

/** The package's own `startPaysim(options)`, as a merchant's test calls it, closed with its scope. */
export async function useStartedPaysim(options: StartPaysimOptions = {}, scope: Scope = thisTest): Promise<RunningPaysim> {
  const paysim = await startPaysim(options);
  scope.defer(() => paysim.close());
  return paysim;
}

/** `startTestPaysimApp` (`api` through `app.request()`, no socket), stopped with its scope. */
export async function usePaysimApp(options: PaysimOptions = {}, scope: Scope = thisTest): Promise<TestPaysim> {
  const paysim = await startTestPaysimApp(options);
  scope.defer(() => paysim.dispose());
  return paysim;
}

/** `startReceiver`, closed with its scope. */
export async function useReceiver(initial: Behaviour | ChooseBehaviour = 200, scope: Scope = thisTest): Promise<Receiver> {
  const receiver = await startReceiver(initial);
  scope.defer(() => receiver.close());
  return receiver;
}

/** `startCli`: a `paysim …` child, killed with its scope unless it has exited already. */
export function useCli(args: readonly string[], options: CliOptions = {}, scope: Scope = thisTest): CliHandle {
  const cli = startCli(args, options);
  scope.defer(() => cli.stop("SIGKILL"));
  return cli;
}

/** `startPaysimCli`: a serving `paysim start` child, killed with its scope unless it has exited already. */
export async function usePaysimCli(args: readonly string[] = [], options: CliOptions = {}, scope: Scope = thisTest): Promise<StartedPaysim> {
  const started = await startPaysimCli(args, options);
  scope.defer(() => started.cli.stop("SIGKILL"));
  return started;
}

/** The schema a paysim opens its database with: paysim's steps and every resource module's. */
const WHOLE_SCHEMA = await wholeSchema();

/** `openDatabase` (migrated by `migrations`, by default the whole schema a paysim has), closed with its scope unless closed already. */
export function useDatabase(path: string, migrations: readonly Migration[] = WHOLE_SCHEMA.migrations, scope: Scope = thisTest): Db {
  const db = openDatabase(path, migrations);
  scope.defer(() => {
    if (db.open) db.close();
  });
  return db;
}

/** `startInTmux`: `command` in a tmux session of its own, killed (with its private tmux server) with its scope. */
export async function useTmux(command: readonly string[], options: TmuxOptions, scope: Scope = thisTest): Promise<TmuxTerminal> {
  const terminal = await startInTmux(command, options);
  scope.defer(() => terminal.kill());
  return terminal;
}

import type { ChildProcess } from "node:child_process";
import { constants } from "node:os";

/**
 * The signals `exec` handles rather than dying of: every one whose default would end the process
 * and that Node.js lets a program handle (SIGUSR1 starts Node's debugger; SIGPIPE is ignored by
 * Node). A closed terminal sends SIGHUP; Ctrl-\ sends SIGQUIT.
 */
export const PASSED_ON: readonly NodeJS.Signals[] = ["SIGHUP", "SIGINT", "SIGQUIT", "SIGTERM", "SIGUSR2", "SIGALRM"];

/** The status of a process that signal `signal` ended: 128 + its number. */
export const signalStatus = (signal: NodeJS.Signals) => 128 + (constants.signals[signal] ?? 0);

/**
 * Where a signal sent to `exec` goes, from the moment exec starts until it exits, so that no
 * signal ever ends it by its default action (which would leave a report's temporary file behind):
 *
 * - while the command runs, the signal is passed on to it, and exec waits for it as usual;
 * - at any other time (paysim starting, the reports being written, paysim stopping), the first
 *   such signal aborts `interrupted`: exec writes no further file, a write under way removes its
 *   temporary file, and exec exits 128 + n (130 for SIGINT, 143 for SIGTERM). A file already in
 *   place stays whole. A second signal changes nothing: the first is being acted on.
 */
export interface ExecSignals {
  /** Aborted by the first signal that arrives while no command runs. */
  readonly interrupted: AbortSignal;
  /** The signal that aborted `interrupted`. */
  readonly received: NodeJS.Signals | undefined;
  /** Signals arriving from now until the command has exited are passed on to `child`. */
  passTo(child: ChildProcess): void;
}

export function routeExecSignals(): ExecSignals {
  const controller = new AbortController();
  let child: ChildProcess | undefined;
  let received: NodeJS.Signals | undefined;
  const route = (signal: NodeJS.Signals) => {
    // exitCode and signalCode are set as Node learns that the command ended, before its exit
    // event; a command that could not be started has no pid.
    if (child !== undefined && child.pid !== undefined && child.exitCode === null && child.signalCode === null) {
      child.kill(signal);
      return;
    }
    if (received !== undefined) return;
    received = signal;
    controller.abort();
  };
  // Never removed: until the process has exited, a signal is acted on here, not by default.
  for (const signal of PASSED_ON) process.on(signal, route);
  return {
    interrupted: controller.signal,
    get received() {
      return received;
    },
    passTo(command) {
      child = command;
    },
  };
}

import type { PaysimInstance } from "../paysim.js";
import type { Output } from "./output.js";

/** How a command stops its paysim: once, with the --export-on-exit snapshot first. */
export interface Stop {
  /** Writes the snapshot (when asked for), then closes the instance; calling it again returns the same stop. */
  (): Promise<void>;
  /**
   * Interrupts a snapshot being written (a second Ctrl-C or SIGTERM) and resolves once its
   * temporary file is gone, so that the process can exit at once leaving nothing beside the target;
   * resolves at once when no snapshot is being written.
   */
  interruptExport(): Promise<void>;
}

/**
 * The instance's close, preceded by writing the --export-on-exit snapshot (when given): how every
 * ordinary stop of `paysim start` (SIGINT, SIGTERM, q) and of `paysim exec` (the command ended)
 * ends. A crash never comes here. A snapshot that cannot be written is reported, paysim still
 * stops, and the promise rejects, so that the caller exits 1.
 */
export function closeWithExport(instance: PaysimInstance, path: string | undefined, output: Output): Stop {
  let stopping: Promise<void> | undefined;
  const interrupt = new AbortController();
  /** The snapshot being written; it settles (never rejects) once its failure, if any, is reported. */
  let writing: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      if (path === undefined) return instance.close();
      let failure: { error: unknown } | undefined;
      writing = instance.snapshot(path, interrupt.signal).catch((error: unknown) => {
        failure = { error };
        output.error(`paysim: ${(error as Error).message}`);
      });
      await writing;
      await instance.close();
      if (failure) throw failure.error;
    })());
  return Object.assign(stop, {
    async interruptExport() {
      interrupt.abort();
      await writing;
    },
  });
}

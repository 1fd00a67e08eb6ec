import type { PaysimInstance } from "../paysim.js";
import type { Output } from "./output.js";

/**
 * The instance's close, preceded by writing the --export-on-exit snapshot (when given): how every
 * ordinary stop of `paysim start` (SIGINT, SIGTERM, q) and of `paysim exec` (the command ended)
 * ends. A crash never comes here. A snapshot that cannot be written is reported, paysim still
 * stops, and the promise rejects, so that the caller exits 1. Calling it again returns the same
 * stop.
 */
export function closeWithExport(instance: PaysimInstance, path: string | undefined, output: Output): () => Promise<void> {
  let stopping: Promise<void> | undefined;
  return () =>
    (stopping ??= (async () => {
      if (path === undefined) return instance.close();
      try {
        await instance.snapshot(path);
      } catch (error) {
        output.error(`paysim: ${(error as Error).message}`);
        await instance.close();
        throw error;
      }
      await instance.close();
    })());
}

import { jsonFileKind, writeRefusal, type FileKind } from "../shared/owned-file.js";
import { keptFilesOf, SNAPSHOT_FILE } from "../paysim.js";
import type { ServerFlags } from "./server-options.js";

/**
 * The files a command writes besides its database, each through shared/owned-file.ts: judged
 * before the command runs anything, and again when written.
 */

/** `paysim exec --coverage`: recognised as paysim's by its `"object": "coverage"`. */
export const COVERAGE_FILE: FileKind = jsonFileKind("coverage report", "coverage");

/** A file a command will write: where, and of which kind. */
export interface OutputFile {
  path: string;
  kind: FileKind;
}

/** The files no file written for these flags may replace; the export's own target is one for every other file. */
export function keptFilesOfFlags(flags: ServerFlags, forExport = false) {
  return keptFilesOf({ db: flags.db, importFrom: flags.import, config: flags.config, exportTo: forExport ? undefined : flags.exportOnExit });
}

/**
 * The refusal (one line, naming the path and why) of the first file the command would write that
 * it may not: the --export-on-exit snapshot, then `others`; undefined when every one may be written.
 */
export function outputFilesProblem(flags: ServerFlags, others: readonly OutputFile[] = []): string | undefined {
  if (flags.exportOnExit !== undefined) {
    const refusal = writeRefusal(flags.exportOnExit, SNAPSHOT_FILE, keptFilesOfFlags(flags, true));
    if (refusal) return refusal.message;
  }
  for (const file of others) {
    const refusal = writeRefusal(file.path, file.kind, keptFilesOfFlags(flags));
    if (refusal) return refusal.message;
  }
  return undefined;
}

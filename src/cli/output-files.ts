import { jsonFileKind, keptRole, markedFileKind, writeRefusal, type FileKind, type KeptFile } from "../shared/owned-file.js";
import { keptFilesOf, SNAPSHOT_FILE } from "../paysim.js";
import type { ServerFlags } from "./server-options.js";

/**
 * The files a command writes besides its database, each through shared/owned-file.ts: judged
 * before the command runs anything, and again when written.
 */

/** `paysim exec --coverage`: recognised as paysim's by its `"object": "coverage"`. */
export const COVERAGE_FILE: FileKind = jsonFileKind("coverage report", "coverage");

/** `paysim exec --report`: recognised by its `"object": "report"`. */
export const REPORT_FILE: FileKind = jsonFileKind("run report", "report");

/** What a JUnit XML file of `paysim exec --junit` starts with, by which paysim knows it wrote it. */
export const JUNIT_MARK = '<?xml version="1.0" encoding="UTF-8"?>\n<!-- paysim run report (JUnit XML) -->\n';

/** `paysim exec --junit`: JUnit XML has no field of paysim's, so it starts with JUNIT_MARK. */
export const JUNIT_FILE: FileKind = markedFileKind("JUnit report", JUNIT_MARK);

/** A file a command will write: where, and of which kind. */
export interface OutputFile {
  path: string;
  kind: FileKind;
}

/** A file another of the same command's files may not be: "the run report (r.json)". */
export const asKept = (file: OutputFile): KeptFile => ({ path: file.path, role: `the ${file.kind.name} (${file.path})` });

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
  for (const [i, file] of others.entries()) {
    // Compared by real identity: `a/r.json` and `b/r.json` with b a link to a are one file.
    const twice = keptRole(file.path, others.slice(0, i).map(asKept));
    if (twice) return `Cannot write the ${file.kind.name} ${file.path}: it is the same file as ${twice}. Choose another path for the ${file.kind.name}.`;
    const refusal = writeRefusal(file.path, file.kind, keptFilesOfFlags(flags));
    if (refusal) return refusal.message;
  }
  return undefined;
}

import { closeSync, constants, fstatSync, lstatSync, openSync, writeSync } from "node:fs";
import { keptRole, keptRoleOf, type KeptFile } from "./owned-file.js";

/**
 * Appending to a file someone named (GitHub Actions' `GITHUB_STEP_SUMMARY`): what it held stays,
 * so it does not go through owned-file.ts, which only ever replaces. The same care otherwise: a
 * symbolic link is refused, never followed; a folder, a device or a pipe is refused; a file
 * paysim keeps (the database in use, the imported snapshot, the export target, the config) is
 * refused, compared by device and inode once the file is open, so no link leads to one.
 */

/** Why `path` may not be appended to (completing "it …"), or undefined when it may. Changes nothing. */
export function appendRefusal(path: string, kept: readonly KeptFile[]): string | undefined {
  const keptAs = keptRole(path, kept);
  if (keptAs !== undefined) return `is ${keptAs}`;
  try {
    return refusalOf(lstatSync(path));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    return `cannot be examined (${(error as Error).message})`;
  }
}

function refusalOf(stats: { isSymbolicLink(): boolean; isDirectory(): boolean; isFile(): boolean }): string | undefined {
  if (stats.isSymbolicLink()) return "is a symbolic link, and paysim does not follow links to the files it writes";
  if (stats.isDirectory()) return "is a folder";
  return stats.isFile() ? undefined : "is not a regular file";
}

/**
 * Appends `bytes` to `path` (made when missing), judged again as it is opened. Throws an Error
 * whose message completes "it …" when the file may not or could not be written.
 */
export function appendToFile(path: string, bytes: Uint8Array, kept: readonly KeptFile[]): void {
  const refusal = appendRefusal(path, kept);
  if (refusal !== undefined) throw new Error(refusal);
  let fd: number;
  try {
    // O_NOFOLLOW: a link put there since is refused; O_NONBLOCK: a pipe without a reader does not hang.
    fd = openSync(path, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW | constants.O_NONBLOCK, 0o666);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new Error(
      code === "ELOOP" ? "is a symbolic link, and paysim does not follow links to the files it writes" : `cannot be opened (${(error as Error).message})`,
      { cause: error },
    );
  }
  try {
    const stats = fstatSync(fd);
    const keptAs = keptRoleOf(new Set([`${stats.dev}:${stats.ino}`]), kept);
    const opened = refusalOf(stats) ?? (keptAs === undefined ? undefined : `is ${keptAs}`);
    if (opened !== undefined) throw new Error(opened);
    let written = 0;
    while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written);
  } finally {
    closeSync(fd);
  }
}

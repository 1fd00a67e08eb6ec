import { lstatSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/**
 * Every entry below `dir` (recursively), in name order, with its mode, inode and bytes: what a
 * refused path must leave exactly as it was. A link shows as itself (its own mode), never followed.
 */
export function fileTree(dir: string): unknown[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      const stats = lstatSync(path);
      const entry = { name: path, mode: stats.mode, ino: stats.ino, bytes: stats.isFile() ? readFileSync(path).toString("base64") : null };
      return stats.isDirectory() ? [entry, ...fileTree(path)] : [entry];
    });
}

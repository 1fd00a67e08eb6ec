import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const DRIVER = "src/store/sqlite-driver.ts";
/** What the driver loads in place of better-sqlite3 inside the single executable (scripts/build-executable.mjs). */
const EXECUTABLE_STAND_IN = "scripts/executable/better-sqlite3.cjs";

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.(ts|tsx|mjs|cjs|js)$/.test(entry.name))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)));
}

describe("the SQLite binding", () => {
  // The driver is where a binding that cannot load is told in one line, before any file is made:
  // a module that loaded better-sqlite3 by name would bypass that. In the single executable the
  // driver loads a stand-in that loads better-sqlite3 with the embedded binding: still through the driver.
  it("is loaded by src/store/sqlite-driver.ts alone (type imports aside), and in the executable by its stand-in", () => {
    const loaders = ["src", "test", "bench", "scripts", "bin"].flatMap(sources).filter((path) => {
      if (path === DRIVER || path === EXECUTABLE_STAND_IN) return false;
      const text = readFileSync(join(ROOT, path), "utf8");
      return /^import (?!type )[^;]*from "better-sqlite3"/m.test(text) || /require\(["']better-sqlite3["']\)|import\(["']better-sqlite3/.test(text);
    });
    expect(loaders).toEqual([]);
  });
});

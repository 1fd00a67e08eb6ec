/**
 * The one place that loads SQLite; everything else takes `Database` from here and never imports
 * better-sqlite3 itself.
 *
 * better-sqlite3 13 is built on Node-API 10 (Node.js 22.14 and later) and ships its binaries
 * inside the package: nothing downloads or compiles at install. Node-API binaries load on every
 * Node.js that has that Node-API, so the one way a working install stops loading is a binary that
 * was compiled on the machine (a platform without a prebuilt one) for another Node.js: that, and a
 * missing package, are said in one line that names the fix.
 */
import { createRequire } from "node:module";
import type BetterSqlite3 from "better-sqlite3";

const require = createRequire(import.meta.url);

/** What starts the one-line message the `paysim` binary prints for a binding that cannot load. */
export const BINDING_FAILURE_PREFIX = "paysim cannot load its SQLite binding";

/** Node.js majors by the NODE_MODULE_VERSION their native modules are compiled for. */
const NODE_OF_MODULE_VERSION: Readonly<Record<string, string>> = { "108": "18", "115": "20", "127": "22", "131": "23", "137": "24", "141": "25" };

function explain(error: Error): string {
  const firstLine = error.message.split("\n")[0] ?? "";
  const mismatch = /NODE_MODULE_VERSION (\d+)\. This version of Node\.js requires\s+NODE_MODULE_VERSION (\d+)/.exec(error.message);
  if (mismatch) {
    const [, builtFor = "", running = ""] = mismatch;
    const builtNode = NODE_OF_MODULE_VERSION[builtFor];
    return (
      `its node_modules was built by ${builtNode ? `Node.js ${builtNode}` : "another Node.js"} (NODE_MODULE_VERSION ${builtFor}), ` +
      `and this Node.js needs ${running}. Run npm rebuild better-sqlite3, or a fresh npm ci, with this Node.js.`
    );
  }
  if ((error as NodeJS.ErrnoException).code === "MODULE_NOT_FOUND") return `${firstLine}. Run npm install (or npm ci) again.`;
  return `${firstLine}. Run npm rebuild better-sqlite3, or a fresh npm ci, with this Node.js.`;
}

export const Database: typeof BetterSqlite3 = loadBinding();

function loadBinding(): typeof BetterSqlite3 {
  try {
    const binding = require("better-sqlite3") as typeof BetterSqlite3;
    // better-sqlite3 loads its native part on the first open: open one here, so that a binary that
    // cannot load fails at start, before paysim has made a folder or a file.
    new binding(":memory:").close();
    return binding;
  } catch (error) {
    throw new Error(`${BINDING_FAILURE_PREFIX} (better-sqlite3) on Node.js ${process.version}: ${explain(error as Error)}`, { cause: error });
  }
}

/** A connection. */
export type SqliteDatabase = BetterSqlite3.Database;

/**
 * The one place that chooses the SQLite binding for the Node.js paysim runs on; everything else
 * takes `Database` from here and never imports better-sqlite3 itself.
 *
 * - better-sqlite3 13 is built on Node-API 10 (Node.js 22.14 and later) and ships its binary
 *   inside the package: nothing to compile, and no Node-internal class whose layout can change.
 * - better-sqlite3 12 (installed as the optional dependency `better-sqlite3-v12`, compiled at
 *   install) is for the Node.js lines without Node-API 10 (20, and 22 before 22.14), where 13
 *   cannot load. It is never loaded on Node.js 24: its statements subclass node::ObjectWrap,
 *   whose destructor aborts the process there when a statement is collected at the wrong moment.
 *
 * Both expose the same API, typed by @types/better-sqlite3.
 */
import { createRequire } from "node:module";
import type BetterSqlite3 from "better-sqlite3";

const require = createRequire(import.meta.url);

/** The Node-API version better-sqlite3 13's binary asks for. */
const NAPI_OF_CURRENT_BINDING = 10;

/** Which package this Node.js loads: "better-sqlite3" (13) or "better-sqlite3-v12". */
export const SQLITE_BINDING: "better-sqlite3" | "better-sqlite3-v12" =
  Number(process.versions.napi) >= NAPI_OF_CURRENT_BINDING ? "better-sqlite3" : "better-sqlite3-v12";

export const Database: typeof BetterSqlite3 = loadBinding();

function loadBinding(): typeof BetterSqlite3 {
  try {
    // Two literal requires, so that a bundler sees both names (they stay external).
    return SQLITE_BINDING === "better-sqlite3" ? (require("better-sqlite3") as typeof BetterSqlite3) : (require("better-sqlite3-v12") as typeof BetterSqlite3);
  } catch (error) {
    throw new Error(
      `paysim cannot load its SQLite binding for Node.js ${process.version} (${SQLITE_BINDING}): ${(error as Error).message.split("\n")[0]}. ` +
        (SQLITE_BINDING === "better-sqlite3"
          ? "Run npm install again."
          : "On this Node.js it is compiled at install, which needs python3, make and a C++ compiler: install them and run npm rebuild better-sqlite3-v12, or use Node.js 22.14 or newer, which needs no compiler."),
      { cause: error },
    );
  }
}

/** A connection, as both bindings type it. */
export type SqliteDatabase = BetterSqlite3.Database;

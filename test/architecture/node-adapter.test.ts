import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const SRC = fileURLToPath(new URL("../../src", import.meta.url));
const ADAPTER = "server/node-adapter.ts";

/** Every source file under src/, as a path relative to it. */
function sources(dir = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.tsx?$/.test(entry.name) ? [relative(SRC, path)] : [];
  });
}

/**
 * The HTTP app is plain Hono and runs the same under `app.request()`: what only
 * Node's request gives (its env bindings, raw header lines) and what only pays
 * off on a socket (holding answers to the end of the turn) live in one module.
 */
describe("server/node-adapter.ts", () => {
  const readers = [
    { what: "the context's env (Node's request)", pattern: /\bc\.env\b|\.env\?*\.incoming\b/ },
    { what: "Node's raw header lines", pattern: /\brawHeaders\b/ },
    { what: "the end-of-turn hold", pattern: /turn-end\.js/ },
  ];

  it.each(readers)("is the only module of src/ that reads $what", ({ pattern }) => {
    const found = sources().filter((file) => pattern.test(readFileSync(join(SRC, file), "utf8")));
    expect(found).toEqual([ADAPTER]);
  });
});

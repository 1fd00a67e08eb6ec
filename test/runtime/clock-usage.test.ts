import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

const SRC = new URL("../../src/", import.meta.url).pathname;

/**
 * Domain time is read only through the clock (docs/api.md), so that a test or a
 * `clock advance` can move every schedule at once. Allowed elsewhere: the
 * webhook signer, whose `t` is wall-clock time as docs/webhooks.md says.
 */
const ALLOWED = new Set(["runtime/clock.ts", "webhooks/sign.ts"]);
const WALL_CLOCK = [/\bDate\.now\b/, /new Date\(\s*\)/];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : /\.tsx?$/.test(name) ? [path] : [];
  });
}

describe("the one clock", () => {
  it("is the only reader of the wall clock in src/", () => {
    const offenders = sourceFiles(SRC)
      .map((file) => relative(SRC, file))
      .filter((file) => !ALLOWED.has(file))
      .flatMap((file) =>
        readFileSync(join(SRC, file), "utf8")
          .split("\n")
          .map((line, i) => ({ line: line.trim(), at: `${file}:${i + 1}` }))
          .filter(({ line }) => !line.startsWith("//") && !line.startsWith("*") && WALL_CLOCK.some((re) => re.test(line)))
          .map(({ at, line }) => `${at}: ${line}`),
      );
    expect(offenders).toEqual([]);
  });
});

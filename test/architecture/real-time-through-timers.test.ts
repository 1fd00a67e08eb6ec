import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/**
 * The ways of reading or waiting on real time. `setImmediate` is not one: it runs at the next turn
 * of the event loop, however long that takes, and moves no time a test would move by hand.
 */
const REAL_TIME_USES: readonly { use: string; pattern: RegExp }[] = [
  // A method of a timers value (`timers.setTimeout(`) is the port itself: only bare calls count.
  { use: "setTimeout(", pattern: /(?<![.\w])setTimeout\s*\(/ },
  { use: "setInterval(", pattern: /(?<![.\w])setInterval\s*\(/ },
  { use: "performance.now(", pattern: /\bperformance\.now\s*\(/ },
  { use: "Date.now(", pattern: /\bDate\.now\s*\(/ },
  { use: "new Date()", pattern: /\bnew Date\(\s*\)/ },
  { use: "process.hrtime", pattern: /\bprocess\.hrtime\b/ },
  { use: "node:timers", pattern: /(\bfrom|\bimport\(|\brequire\()\s*["'](node:)?timers(\/promises)?["']/ },
];

/**
 * The real time read or waited on outside the timers port, each for a reason: none is a wait or a
 * measure of the product's own (a hold, a timeout, a request's or an attempt's duration, a frame).
 */
const ALLOWED: readonly { file: string; use: string; why: string }[] = [
  { file: "src/runtime/timers.ts", use: "setTimeout(", why: "realTimers: the port's own, Node's timers" },
  { file: "src/runtime/timers.ts", use: "performance.now(", why: "realTimers: the port's own, Node's monotonic time" },
  {
    file: "src/runtime/clock.ts",
    use: "Date.now(",
    why: "wall-clock dates (the clock's real anchor, `startedAt`), not durations; the clock takes `realNow` for tests",
  },
  { file: "src/webhooks/sign.ts", use: "Date.now(", why: "a signature's timestamp: wall-clock seconds the receiver checks against its own clock" },
  { file: "src/http-listener.ts", use: "setTimeout(", why: "a closed connection's socket linger: socket upkeep, no answer or measure waits on it" },
  { file: "src/cli/commands/stop.ts", use: "setTimeout(", why: "`paysim stop` polls another process's exit: it runs no instance whose timers it could use" },
];

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.(ts|tsx)$/.test(entry.name))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)));
}

/** Each `file:line use` in src/ outside comments; a line of a doc comment (" * …") or a `//` comment shows no code. */
function realTimeUses(): { at: string; file: string; use: string }[] {
  return sources("src").flatMap((file) =>
    readFileSync(join(ROOT, file), "utf8")
      .split("\n")
      .flatMap((line, index) => {
        const code = line.replace(/\/\/.*$/, "");
        if (/^\s*(\*|\/\*)/.test(code)) return [];
        return REAL_TIME_USES.filter(({ pattern }) => pattern.test(code)).map(({ use }) => ({ at: `${file}:${index + 1} ${use}`, file, use }));
      }),
  );
}

describe("real time in src/", () => {
  // A wait or a measure on Node's timers directly is one no test can move: it ends with the load of the machine.
  it("is read and waited on only through the timers port (src/runtime/timers.ts), the listed exceptions aside", () => {
    const outside = realTimeUses().filter(({ file, use }) => !ALLOWED.some((allowed) => allowed.file === file && allowed.use === use));
    expect(outside.map(({ at }) => at)).toEqual([]);
  });

  it("lists no exception that no longer happens", () => {
    const uses = realTimeUses();
    const stale = ALLOWED.filter((allowed) => !uses.some(({ file, use }) => allowed.file === file && allowed.use === use));
    expect(stale).toEqual([]);
  });
});

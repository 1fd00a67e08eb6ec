// A CI cancel as the tests finish: SIGTERM (and a second signal) reaching `paysim exec` just after
// its command ended, while it writes its report files. It never dies of the default action, and
// each file is whole or absent, with no temporary file beside it. The real binary (run `npm run build`).
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { JUNIT_MARK } from "../../src/cli/output-files.js";
import { runCli } from "../helpers/cli.js";
import { useTempDir } from "../helpers/disposables.js";

/** How many runs: the signal lands at a different point of exec's end each time. */
const RUNS = 30;

/** Whether the file is whole (parses as what it is), or absent. */
function wholeOrAbsent(dir: string, name: string): boolean {
  let text: string;
  try {
    text = readFileSync(join(dir, name), "utf8");
  } catch {
    return true;
  }
  if (name.endsWith(".xml")) return text.startsWith(JUNIT_MARK) && text.trimEnd().endsWith("</testsuite>");
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

describe("paysim exec signalled as its command ends", () => {
  it(`exits 130/143 or with the command's status, never by the default action, and leaves every file whole or absent (${RUNS} runs)`, async () => {
    const outcomes = new Set<string>();
    for (let run = 0; run < RUNS; run++) {
      const dir = useTempDir("paysim-exec-signals-");
      // The command's child signals exec (its parent's parent: $PPID of the subshell) just after the command exits;
      // every other run, a second signal follows the first.
      const signals = run % 2 === 0 ? "kill -TERM $PPID" : "kill -TERM $PPID; kill -INT $PPID";
      const result = await runCli(
        ["exec", "--report", "r.json", "--junit", "r.xml", "--coverage", "c.json", "--", "sh", "-c", `(sleep 0.004; ${signals}) & exit 0`],
        {
          cwd: dir,
        },
      );
      // Never by the default action (a signal of its own), even with a second signal.
      expect({ run, signal: result.signal, stderr: [0, 130, 143].includes(result.code ?? -1) ? "" : result.stderr }).toEqual({
        run,
        signal: null,
        stderr: "",
      });
      outcomes.add(String(result.code));
      expect(readdirSync(dir).filter((name) => !["r.json", "r.xml", "c.json"].includes(name))).toEqual([]);
      for (const name of ["r.json", "r.xml", "c.json"]) expect({ run, name, whole: wholeOrAbsent(dir, name) }).toEqual({ run, name, whole: true });
    }
    expect([...outcomes].filter((outcome) => !["0", "130", "143"].includes(outcome))).toEqual([]);
  });
});

// docs/testing.md's Python test file ("From any language"), run as a Python developer runs it: the
// page's block written out byte for byte into a folder of its own, then the page's command with the
// built `paysim`. The page shows test/examples/test_payments.py whole.
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { consoleSteps, readBlocks } from "../docs/markdown-examples.js";
import { runCli } from "../helpers/cli.js";
import { useTempDir } from "../helpers/disposables.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const PAGE = join(ROOT, "docs", "testing.md");
const FILE = "test/examples/test_payments.py";
/** The command the page shows, as it shows it. */
const COMMAND = "paysim exec -- python3 -m unittest -v test_payments.py";

/** The Python file as the page shows it. */
function shownFile(): string {
  const block = readBlocks(PAGE).find((candidate) => candidate.marker?.kind === "example-code" && candidate.marker.path === FILE);
  if (!block) throw new Error(`docs/testing.md shows no block marked <!-- example-code: ${FILE} -->`);
  return `${block.body}\n`;
}

/** The names of the file's test methods. */
const testNames = (source: string) => [...source.matchAll(/^ {4}def (test_\w+)\(self\):$/gm)].map((match) => match[1]!);

describe("docs/testing.md: a Python test file with only the standard library", () => {
  it("is shown whole on the page, with the command that runs it and the tests that output names", () => {
    expect(shownFile()).toBe(readFileSync(join(ROOT, FILE), "utf8"));
    const run = readBlocks(PAGE)
      .filter((block) => block.lang === "console")
      .flatMap(consoleSteps)
      .find((step) => step.command === COMMAND);
    expect(run, `docs/testing.md shows no \`$ ${COMMAND}\``).toBeDefined();
    const names = testNames(shownFile());
    expect(names.length).toBeGreaterThanOrEqual(4);
    expect(run!.output.filter((line) => line.endsWith(" ... ok")).map((line) => line.split(" ")[0])).toEqual([...names].sort());
    expect(run!.output).toEqual(expect.arrayContaining([expect.stringMatching(new RegExp(`^Ran ${names.length} tests in `)), "OK"]));
  });

  it("passes under `paysim exec`, every one of its tests run", async () => {
    const python = spawnSync("python3", ["--version"]);
    if (python.error) {
      expect.fail(
        `python3 cannot be run (${python.error.message}): install Python 3 (on Debian: apt-get install python3; .ci/run does) to run docs/testing.md's Python example`,
      );
    }
    const folder = useTempDir("paysim-python-example-");
    writeFileSync(join(folder, "test_payments.py"), shownFile());

    const ran = await runCli(COMMAND.split(" ").slice(1), { cwd: folder });

    const report = `${ran.stdout}\n${ran.stderr}`;
    expect(ran.code, report).toBe(0);
    const names = testNames(shownFile());
    for (const name of names) expect(ran.stderr, report).toMatch(new RegExp(`^${name} \\(.*\\) \\.\\.\\. ok$`, "m"));
    expect(ran.stderr, report).toMatch(new RegExp(`^Ran ${names.length} tests in `, "m"));
    expect(ran.stderr.trimEnd().split("\n").at(-1), report).toBe("OK");
  }, 60_000);
});

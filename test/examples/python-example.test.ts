// docs/testing.md's Python test file ("From any language"), run as a Python developer runs it: the
// page's block written out byte for byte into a folder of its own, then the page's command with the
// built `paysim`. The page shows test/examples/test_payments.py and test/examples/check_schemas.py
// (which needs jsonschema: Debian's python3-jsonschema) whole.
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { consoleSteps, readBlocks } from "../docs/markdown-examples.js";
import { runCli } from "../helpers/cli.js";
import { useTempDir } from "../helpers/disposables.js";
import { pythonWith } from "../helpers/python.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const PAGE = join(ROOT, "docs", "testing.md");
const FILE = "test/examples/test_payments.py";
/** The command the page shows, as it shows it. */
const COMMAND = "paysim exec -- python3 -m unittest -v test_payments.py";

/** The Python file `file` as the page shows it. */
function shownFile(file = FILE): string {
  const block = readBlocks(PAGE).find((candidate) => candidate.marker?.kind === "example-code" && candidate.marker.path === file);
  if (!block) throw new Error(`docs/testing.md shows no block marked <!-- example-code: ${file} -->`);
  return `${block.body}\n`;
}

/** The page's `$ command` step, with the output it shows. */
function shownStep(command: string) {
  const step = readBlocks(PAGE)
    .filter((block) => block.lang === "console")
    .flatMap(consoleSteps)
    .find((candidate) => candidate.command === command);
  if (!step) throw new Error(`docs/testing.md shows no \`$ ${command}\``);
  return step;
}

/** Fails, saying how to get it, when python3 cannot be run. */
function requirePython(): void {
  const python = spawnSync("python3", ["--version"]);
  if (python.error) {
    expect.fail(
      `python3 cannot be run (${python.error.message}): install Python 3 (on Debian: apt-get install python3; .ci/run does) to run docs/testing.md's Python examples`,
    );
  }
}

/** The names of the file's test methods. */
const testNames = (source: string) => [...source.matchAll(/^ {4}def (test_\w+)\(self\):$/gm)].map((match) => match[1]!);

describe("docs/testing.md: a Python test file with only the standard library", () => {
  it("is shown whole on the page, with the command that runs it and the tests that output names", () => {
    expect(shownFile()).toBe(readFileSync(join(ROOT, FILE), "utf8"));
    const run = shownStep(COMMAND);
    const names = testNames(shownFile());
    expect(names.length).toBeGreaterThanOrEqual(4);
    expect(run!.output.filter((line) => line.endsWith(" ... ok")).map((line) => line.split(" ")[0])).toEqual([...names].sort());
    expect(run!.output).toEqual(expect.arrayContaining([expect.stringMatching(new RegExp(`^Ran ${names.length} tests in `)), "OK"]));
  });

  it("passes under `paysim exec`, every one of its tests run", async () => {
    requirePython();
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

const SCHEMAS_FILE = "test/examples/check_schemas.py";
const SCHEMAS_COMMAND = "paysim exec -- python3 check_schemas.py";

describe("docs/testing.md: checking answers and webhook bodies with jsonschema against the OpenAPI document", () => {
  it("is shown whole on the page, and prints under `paysim exec` what the page shows", async () => {
    expect(shownFile(SCHEMAS_FILE)).toBe(readFileSync(join(ROOT, SCHEMAS_FILE), "utf8"));
    requirePython();
    const folder = useTempDir("paysim-python-schemas-");
    const env = pythonWith(["jsonschema"], folder);
    if (!env) expect.fail("no python3 with jsonschema: on Debian, apt-get install python3-jsonschema (.ci/run does), to run docs/testing.md's schema example");
    writeFileSync(join(folder, "check_schemas.py"), shownFile(SCHEMAS_FILE));

    const ran = await runCli(SCHEMAS_COMMAND.split(" ").slice(1), { cwd: folder, env });

    expect({ code: ran.code, stderr: ran.stderr }).toEqual({ code: 0, stderr: "" });
    expect(ran.stdout.trimEnd().split("\n")).toEqual(shownStep(SCHEMAS_COMMAND).output);
  }, 60_000);
});

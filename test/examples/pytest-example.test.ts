// docs/testing.md's pytest + pytest-xdist recipe, run as a Python developer runs it: the page's two
// files written out as shown into a folder of their own, then the page's command with the built
// `paysim`, four workers at once. Debian's python3-pytest and python3-pytest-xdist (.ci/run installs
// them) serve Debian's own Python, which may not be the `python3` first on PATH.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { readBlocks } from "../docs/markdown-examples.js";
import { runCli } from "../helpers/cli.js";
import { useTempDir } from "../helpers/disposables.js";
import { pythonWith } from "../helpers/python.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const PAGE = join(ROOT, "docs", "testing.md");
const FILES = ["conftest.py", "test_shop.py"];
const COMMAND = "paysim exec --report report.json --junit report.xml -- python3 -m pytest -n 4";

const shown = (file: string) => {
  const path = `test/examples/pytest-shop/${file}`;
  const block = readBlocks(PAGE).find((candidate) => candidate.marker?.kind === "example-code" && candidate.marker.path === path);
  if (!block) throw new Error(`docs/testing.md shows no block marked <!-- example-code: ${path} -->`);
  return `${block.body}\n`;
};

describe("docs/testing.md: a pytest suite with four pytest-xdist workers", () => {
  it("is shown whole on the page, with the command that runs it", () => {
    for (const file of FILES) expect(shown(file)).toBe(readFileSync(join(ROOT, "test/examples/pytest-shop", file), "utf8"));
    expect(readBlocks(PAGE).some((block) => block.body.trim() === COMMAND)).toBe(true);
    expect([...shown("test_shop.py").matchAll(/^def test_/gm)]).toHaveLength(10);
  });

  it("passes under `paysim exec`, each worker on an instance of its own, and the report covers every worker with no finding", async () => {
    const folder = useTempDir("paysim-pytest-example-");
    const env = pythonWith(["pytest", "xdist"], folder);
    if (!env) expect.fail("no python3 with pytest and pytest-xdist: install Debian's python3-pytest and python3-pytest-xdist (.ci/run does)");
    for (const file of FILES) writeFileSync(join(folder, file), shown(file));

    const ran = await runCli([...COMMAND.split(" ").slice(1), "-p", "no:cacheprovider"], { cwd: folder, env });

    const output = `${ran.stdout}\n${ran.stderr}`;
    expect(ran.code, output).toBe(0);
    expect(ran.stdout, output).toMatch(/^gw0 \[10\] \/ gw1 \[10\] \/ gw2 \[10\] \/ gw3 \[10\]$/m);
    expect(ran.stdout, output).toMatch(/^=+ 10 passed in /m);
    const report = JSON.parse(readFileSync(join(folder, "report.json"), "utf8"));
    // Every worker's instance is rolled in: the eleven creations of the ten tests, whichever worker ran each.
    const { coverage } = report;
    expect(coverage).toMatchObject({ object: "coverage", instances: 4, operations: { createPaymentIntent: { calls: 11, statuses: { "201": 11 } } } });
    expect(coverage.operations.createPayout.calls).toBe(2);
    // The recipe is a well-behaved client: it raises no finding.
    expect(report.findings).toEqual([]);
    expect(readFileSync(join(folder, "report.xml"), "utf8")).toMatch(/<testsuite name="paysim" tests="12" failures="0"/);
  }, 120_000);
});

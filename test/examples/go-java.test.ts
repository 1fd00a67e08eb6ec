// docs/testing.md's Go and Java sections, run as a Go or Java developer runs them: the page's files
// written out as shown into a folder of their own, then the page's commands through a shell, with
// `paysim` on PATH. That `paysim` is the built bin/paysim.js, or the executable PAYSIM_BIN names (the
// single executable, for one), so the same recipes can be run against another build of paysim: then
// the commands' PATH is that `paysim`'s folder and /usr/bin:/bin only, with no Node.js of the suite's.
// Go and Java come from Debian's golang-go, default-jdk-headless and junit5 (.ci/run installs them).
import { spawn, spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { delimiter, join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { readBlocks } from "../docs/markdown-examples.js";
import { cliEnv, PAYSIM_BIN } from "../helpers/cli.js";
import { suiteScope, useTempDir } from "../helpers/disposables.js";
import { coverageRatios } from "../helpers/coverage-totals.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const PAGE = join(ROOT, "docs", "testing.md");

/** The file `path` as the page shows it (its block marked `example-code: path`). */
function shown(path: string): string {
  const block = readBlocks(PAGE).find((candidate) => candidate.marker?.kind === "example-code" && candidate.marker.path === path);
  if (!block) throw new Error(`docs/testing.md shows no block marked <!-- example-code: ${path} -->`);
  return `${block.body}\n`;
}

/** The lines of the page's `sh` blocks, and of its `console` blocks after `$ `. */
const shownCommands = () =>
  readBlocks(PAGE).flatMap((block) =>
    block.lang === "sh"
      ? block.body.split("\n")
      : block.lang === "console"
        ? block.body.split("\n").flatMap((line) => (line.startsWith("$ ") ? [line.slice(2)] : []))
        : [],
  );

/** Fails, saying what to install, when `command` cannot be run. */
function requireTool(command: string, args: string[], install: string): void {
  const ran = spawnSync(command, args, { encoding: "utf8" });
  if (ran.error || ran.status !== 0) expect.fail(`${command} cannot be run (${ran.error?.message ?? ran.stderr.trim()}): ${install} (.ci/run does)`);
}

/** PATH for the page's commands: a folder holding `paysim` (PAYSIM_BIN when set, else the built bin/paysim.js on this Node.js), then the system's. */
function pathWithPaysim(folder: string): string {
  const bin = join(folder, ".bin");
  mkdirSync(bin);
  const target = process.env.PAYSIM_BIN ? `"${process.env.PAYSIM_BIN}"` : `"${process.execPath}" "${PAYSIM_BIN}"`;
  writeFileSync(join(bin, "paysim"), `#!/bin/sh\nexec ${target} "$@"\n`);
  chmodSync(join(bin, "paysim"), 0o755);
  return `${bin}${delimiter}${process.env.PAYSIM_BIN ? "/usr/bin:/bin" : (process.env.PATH ?? "")}`;
}

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs one of the page's command lines through `sh` in `cwd`. */
function shell(line: string, cwd: string, env: Record<string, string>): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn("sh", ["-c", line], { cwd, env: cliEnv(env), stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** The run report a `paysim exec --report` wrote. */
interface Report {
  coverage: { instances: number; operations: Record<string, { calls: number }> };
  findings: unknown[];
  summary: { findings: { error: number; warning: number } };
}
const readReport = (path: string) => JSON.parse(readFileSync(path, "utf8")) as Report;
const operationCalls = (report: Report) => Object.values(report.coverage.operations).reduce((sum, operation) => sum + operation.calls, 0);

const GO_FILES = ["paysim_test.go", "shop_test.go"];
const GO_INIT = "go mod init example.com/shop";
const GO_RUN = "paysim exec --report report.json --junit junit.xml --fail-on errors -- go test -count=1 ./...";
const GO_CACHED = "paysim exec --report report.json -- go test ./...";

describe("docs/testing.md: Go, with the standard library only", () => {
  const suite = suiteScope();
  let module: string;
  let env: Record<string, string>;
  let initialized: Promise<Ran> | undefined;
  /** The page's files in a new module, once for the suite's tests. */
  async function prepareModule() {
    requireTool("go", ["version"], "install Go 1.19 or newer (on Debian: apt-get install golang-go)");
    initialized ??= (() => {
      for (const file of GO_FILES) writeFileSync(join(module, file), shown(`test/examples/go-shop/${file}`));
      return shell(GO_INIT, module, env);
    })();
    const init = await initialized;
    expect(init.code, init.stderr).toBe(0);
  }

  beforeAll(() => {
    const folder = useTempDir("paysim-go-example-", suite);
    module = join(folder, "shop");
    mkdirSync(module);
    // Go's caches in the test's own folder, and no network: the recipe needs nothing but the standard library.
    env = {
      PATH: pathWithPaysim(folder),
      GOPATH: join(folder, "gopath"),
      GOCACHE: join(folder, "gocache"),
      GOFLAGS: "-mod=mod",
      GOPROXY: "off",
    };
  });

  it("is shown whole on the page, with the commands that run it", () => {
    for (const file of GO_FILES) expect(shown(`test/examples/go-shop/${file}`)).toBe(readFileSync(join(ROOT, "test/examples/go-shop", file), "utf8"));
    expect(shownCommands()).toEqual(expect.arrayContaining([GO_INIT, GO_RUN, GO_CACHED]));
    expect(shown("test/examples/go-shop/paysim_test.go")).toMatch(/^func TestMain\(m \*testing\.M\) \{$/m);
    expect(shown("test/examples/go-shop/shop_test.go")).toMatch(/t\.Parallel\(\)/);
  });

  it("passes under `paysim exec --report --junit --fail-on errors`, its tests run (not cached) with no finding", async () => {
    await prepareModule();

    const ran = await shell(GO_RUN, module, env);

    const output = `${ran.stdout}\n${ran.stderr}`;
    expect(ran.code, output).toBe(0);
    expect(ran.stdout, output).toMatch(/^ok\s+example\.com\/shop\s+\d+(\.\d+)?s$/m);
    expect(ran.stderr, output).toMatch(/^paysim: findings: 0 errors, 0 warnings \(report\.json, junit\.xml\)$/m);
    const report = readReport(join(module, "report.json"));
    expect(report.findings).toEqual([]);
    // The package's instance and one for each of the four tests that run in parallel on their own.
    expect(report.coverage.instances).toBe(5);
    expect(report.coverage.operations.createPaymentIntent!.calls).toBeGreaterThan(0);
    expect(report.coverage.operations.createPayout!.calls).toBe(1);
    expect(readFileSync(join(module, "junit.xml"), "utf8")).toMatch(/<testsuite name="paysim" tests="\d+" failures="0"/);
  }, 180_000);

  it("without -count=1, a second run is Go's cached result: nothing is called and the report reads 0", async () => {
    await prepareModule();

    const first = await shell(GO_CACHED, module, env);
    const second = await shell(GO_CACHED, module, env);

    expect(first.code, `${first.stdout}\n${first.stderr}`).toBe(0);
    expect(first.stdout).not.toMatch(/\(cached\)/);
    expect(second.code, `${second.stdout}\n${second.stderr}`).toBe(0);
    expect(second.stdout).toMatch(/^ok\s+example\.com\/shop\s+\(cached\)$/m);
    expect(operationCalls(readReport(join(module, "report.json")))).toBe(0);
    expect(second.stderr).toMatch(new RegExp(`^paysim: coverage: operations ${coverageRatios().operations}, `, "m"));
  }, 180_000);
});

const JAVA_FILES = ["Paysim.java", "PaymentsTest.java"];
const JUNIT = "/usr/share/java/junit-platform-console-standalone.jar";
const JAVA_COMPILE = `javac -d classes -cp ${JUNIT} Paysim.java PaymentsTest.java`;
const JAVA_RUN = `paysim exec --report report.json --junit junit.xml --fail-on errors -- java -jar ${JUNIT} --class-path classes --scan-class-path --config junit.jupiter.execution.parallel.enabled=true`;
/** The test methods of a class as the page shows it. */
const javaTests = (source: string) => [...source.matchAll(/@Test\s+void (\w+)\(\)/g)].map((match) => match[1]!);

describe("docs/testing.md: Java, with JUnit 5 and java.net.http", () => {
  it("is shown whole on the page, with the commands that run it", () => {
    for (const file of JAVA_FILES) expect(shown(`test/examples/java-shop/${file}`)).toBe(readFileSync(join(ROOT, "test/examples/java-shop", file), "utf8"));
    expect(shownCommands()).toEqual(expect.arrayContaining([JAVA_COMPILE, JAVA_RUN]));
    expect(shown("test/examples/java-shop/PaymentsTest.java")).toMatch(
      /@BeforeAll[\s\S]*@AfterAll[\s\S]*@Execution\(ExecutionMode\.CONCURRENT\)|@Execution\(ExecutionMode\.CONCURRENT\)[\s\S]*@BeforeAll[\s\S]*@AfterAll/,
    );
  });

  it("passes under `paysim exec --report --junit --fail-on errors` in JUnit's parallel mode, every test run, with no finding", async () => {
    requireTool("javac", ["-version"], "install a JDK, 17 or newer (on Debian: apt-get install default-jdk-headless)");
    requireTool("java", ["-jar", JUNIT, "--help"], `install JUnit 5's console launcher at ${JUNIT} (on Debian: apt-get install junit5)`);
    const folder = useTempDir("paysim-java-example-");
    const env = { PATH: pathWithPaysim(folder) };
    for (const file of JAVA_FILES) writeFileSync(join(folder, file), shown(`test/examples/java-shop/${file}`));
    const compiled = await shell(JAVA_COMPILE, folder, env);
    expect(compiled.code, compiled.stderr).toBe(0);

    const ran = await shell(JAVA_RUN, folder, env);

    const output = `${ran.stdout}\n${ran.stderr}`;
    expect(ran.code, output).toBe(0);
    // eslint-disable-next-line no-control-regex -- the launcher colours its tree
    const plain = ran.stdout.replace(/\u001b\[[0-9;]*m/g, "");
    const tests = javaTests(shown("test/examples/java-shop/PaymentsTest.java"));
    expect(tests.length).toBe(6);
    for (const test of tests) expect(plain, output).toMatch(new RegExp(`${test}\\(\\) ✔`));
    expect(plain, output).toMatch(new RegExp(`\\[ +${tests.length} tests successful +\\]`));
    expect(plain, output).toMatch(/\[ +0 tests failed +\]/);
    expect(ran.stderr, output).toMatch(/^paysim: findings: 0 errors, 0 warnings \(report\.json, junit\.xml\)$/m);
    const report = readReport(join(folder, "report.json"));
    expect(report.findings).toEqual([]);
    // The class's instance and one for each of the four tests that hold one of their own.
    expect(report.coverage.instances).toBe(5);
    expect(operationCalls(report)).toBeGreaterThan(0);
    expect(report.coverage.operations.createPayout!.calls).toBe(1);
    expect(readFileSync(join(folder, "junit.xml"), "utf8")).toMatch(/<testsuite name="paysim" tests="\d+" failures="0"/);
  }, 180_000);
});

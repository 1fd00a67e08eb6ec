// `paysim exec --report/--junit/--fail-on` with the real binary: a command that makes the mistake
// new_key_on_retry names, and the same command done right; the JUnit XML read back with a parser.
import { linkSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { XMLParser } from "fast-xml-parser";
import { micromark } from "micromark";
import { gfm, gfmHtml } from "micromark-extension-gfm";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { useTempDir } from "../helpers/disposables.js";
import { coverageRatios } from "../helpers/coverage-totals.js";
import { FINDING_CODES } from "../../src/domain/findings.js";

/**
 * A client of the run: a lost_response rule on creations first, then a creation whose answer is
 * lost, sent again under a new Idempotency-Key ("wrong") or its own ("right"); prints the retry's
 * request id; exits with the status given after. "wrong-and-looping" also sends three requests
 * that are refused (400) three times each: one more finding, raised three times.
 */
const CLIENT = `
const [how, status = "0"] = process.argv.slice(2);
const headers = (extra) => ({ Authorization: "Bearer " + process.env.PAYSIM_SECRET_KEY, "Content-Type": "application/json", ...extra });
const post = (path, body, extra) => fetch(process.env.PAYSIM_URL + path, { method: "POST", headers: headers(extra), body: JSON.stringify(body) });
const rule = await post("/v1/sandbox/faults", { fault: "lost_response", match: { method: "POST", path: "/v1/payment_intents" }, times: 1 });
if (rule.status !== 201) throw new Error("fault rule: " + rule.status);
const order = { amount: 4200, description: "Order 42" };
const key = crypto.randomUUID();
await post("/v1/payment_intents", order, { "Idempotency-Key": key }).then(() => { throw new Error("the answer was not lost"); }, () => {});
const again = await post("/v1/payment_intents", order, { "Idempotency-Key": how === "right" ? key : crypto.randomUUID() });
console.log((await again.json()).request_id);
if (how === "wrong-and-looping") {
  for (const bad of ["a", "b", "c"]) for (let i = 0; i < 3; i++) await post("/v1/payment_intents", { amount: -1 }, { "Idempotency-Key": "bad-" + bad });
}
process.exit(Number(status));
`;

interface TestCase {
  "@_name": string;
  "@_classname": string;
  failure?: { "#text": string; "@_message": string; "@_type": string };
}

/** The JUnit XML as a parser reads it: its one testsuite and the testcases by name. */
function readJunit(path: string) {
  const parsed = new XMLParser({ ignoreAttributes: false, isArray: (name) => name === "testcase" }).parse(readFileSync(path, "utf8"));
  const suite = parsed.testsuite as { "@_name": string; "@_tests": string; "@_failures": string; testcase: TestCase[] };
  return { suite, cases: new Map(suite.testcase.map((testCase) => [testCase["@_name"], testCase])) };
}

function execClient(dir: string, options: string[], how: "right" | "wrong" | "wrong-and-looping", status = 0, env?: Record<string, string | undefined>) {
  writeFileSync(join(dir, "client.mjs"), CLIENT);
  return runCli(["exec", ...options, "--", process.execPath, "client.mjs", how, String(status)], { cwd: dir, env });
}

const AREAS = ["operations", "transitions", "events", "webhooks", "errors", "faults"];

describe("paysim exec --report --junit --fail-on", () => {
  it("a lost creation retried under a new key: with --fail-on errors, exit 3 naming the condition; the finding and its request id in the report, a failed testcase in the JUnit XML", async () => {
    const dir = useTempDir("paysim-exec-report-");
    const result = await execClient(dir, ["--report", "r.json", "--junit", "r.xml", "--fail-on", "errors"], "wrong");
    expect(result.code).toBe(3);
    const requestId = result.stdout.trim();
    expect(requestId).toMatch(/^req_/);
    expect(result.stderr).toMatch(
      new RegExp(`^paysim: coverage: operations ${coverageRatios({ operations: 1 }).operations}, .* \\(r\\.json, r\\.xml\\)$`, "m"),
    );
    expect(result.stderr).toMatch(/^paysim: findings: 1 error, 0 warnings \(1 occurrence\) \(r\.json, r\.xml\)$/m);
    expect(result.stderr).toMatch(/^paysim: --fail-on: errors: 1 finding of severity error \(new_key_on_retry\); exit 3\.$/m);

    const report = JSON.parse(readFileSync(join(dir, "r.json"), "utf8"));
    expect(report).toMatchObject({ object: "report", version: 1, summary: { findings: { error: 1, warning: 0 } } });
    expect(report.findings).toEqual([
      expect.objectContaining({ code: "new_key_on_retry", severity: "error", count: 1, examples: [expect.objectContaining({ request_id: requestId })] }),
    ]);
    const lostId = /the same body was sent as (req_\S+), which got no answer/.exec(report.findings[0].examples[0].detail)?.[1];
    expect(lostId).toMatch(/^req_/);

    const { suite, cases } = readJunit(join(dir, "r.xml"));
    expect(suite["@_name"]).toBe("paysim");
    expect([...cases.keys()]).toEqual([...FINDING_CODES, ...AREAS]);
    expect(suite["@_tests"]).toBe(String(FINDING_CODES.length + AREAS.length));
    expect(suite["@_failures"]).toBe("1");
    const failed = cases.get("new_key_on_retry")!;
    expect(failed["@_classname"]).toBe("paysim.findings");
    expect(failed.failure?.["@_type"]).toBe("error");
    expect(failed.failure?.["#text"]).toContain("Keep the Idempotency-Key of a creation until it has an answer");
    expect(failed.failure?.["#text"]).toContain(requestId);
    expect(failed.failure?.["#text"]).toContain(lostId);
    for (const [name, testCase] of cases) if (name !== "new_key_on_retry") expect(testCase.failure, name).toBeUndefined();
  });

  it("the same client done right: exit 0, no findings, no failed testcase", async () => {
    const dir = useTempDir("paysim-exec-report-");
    const result = await execClient(dir, ["--report", "r.json", "--junit", "r.xml", "--fail-on", "findings,errors"], "right");
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/^paysim: findings: 0 errors, 0 warnings \(r\.json, r\.xml\)$/m);
    expect(result.stderr).not.toContain("--fail-on");
    expect(JSON.parse(readFileSync(join(dir, "r.json"), "utf8"))).toMatchObject({ findings: [], summary: { findings: { error: 0, warning: 0 } } });
    const { suite, cases } = readJunit(join(dir, "r.xml"));
    expect(suite["@_failures"]).toBe("0");
    expect([...cases.values()].filter((testCase) => testCase.failure)).toEqual([]);
  });

  it("the command's own non-zero status wins over --fail-on", async () => {
    const dir = useTempDir("paysim-exec-report-");
    const result = await execClient(dir, ["--report", "r.json", "--fail-on", "errors"], "wrong", 5);
    expect(result.code).toBe(5);
    expect(result.stderr).not.toContain("--fail-on");
    expect(JSON.parse(readFileSync(join(dir, "r.json"), "utf8")).summary.findings.error).toBe(1);
  });

  it("without --fail-on, findings never change the exit status", async () => {
    const dir = useTempDir("paysim-exec-report-");
    const result = await execClient(dir, ["--report", "r.json"], "wrong");
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/^paysim: findings: 1 error, 0 warnings \(1 occurrence\) \(r\.json\)$/m);
  });

  it("counts findings (distinct codes) by severity, each with its count, and says the occurrences beside them", async () => {
    const dir = useTempDir("paysim-exec-report-");
    const result = await execClient(dir, ["--report", "r.json", "--fail-on", "findings"], "wrong-and-looping");
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/^paysim: findings: 1 error, 1 warning \(4 occurrences\) \(r\.json\)$/m);
    expect(result.stderr).toMatch(/^paysim: --fail-on: findings: 2 findings \(new_key_on_retry, retried_client_error\); exit 3\.$/m);
    const report = JSON.parse(readFileSync(join(dir, "r.json"), "utf8"));
    expect(report.summary.findings).toEqual({ error: 1, warning: 1 });
    expect(report.findings.map((finding: { code: string; count: number }) => [finding.code, finding.count])).toEqual([
      ["new_key_on_retry", 1],
      ["retried_client_error", 3],
    ]);
  });

  it("--fail-on uncovered:<area> fails the run and that area's testcase when the area left items out", async () => {
    const dir = useTempDir("paysim-exec-report-");
    const result = await execClient(dir, ["--junit", "r.xml", "--fail-on", "uncovered:webhooks"], "right");
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/^paysim: --fail-on: uncovered:webhooks: 10 never gone through \(delivered_first_try, /m);
    const { cases } = readJunit(join(dir, "r.xml"));
    expect(cases.get("webhooks")!.failure?.["#text"]).toContain("delivered_first_try");
    expect(cases.get("operations")!.failure).toBeUndefined();
  });

  it("appends the Markdown summary to GITHUB_STEP_SUMMARY, keeping what the file held", async () => {
    const dir = useTempDir("paysim-exec-report-");
    const summary = join(dir, "step-summary.md");
    writeFileSync(summary, "# Earlier step\n\nits own lines\n");
    const result = await execClient(dir, [], "wrong", 0, { GITHUB_STEP_SUMMARY: summary });
    expect(result.code).toBe(0);
    const text = readFileSync(summary, "utf8");
    expect(text.startsWith("# Earlier step\n\nits own lines\n")).toBe(true);
    expect(text).toContain("## paysim run report");
    expect(text).toContain("**Findings:** 1 error, 0 warnings");
    expect(text).toMatch(new RegExp(`^\\| error \\| \`new_key_on_retry\` \\| 1 \\| .*${result.stdout.trim()}`, "m"));
    expect(text).toMatch(new RegExp(`^\\| operations \\| ${coverageRatios({ operations: 1 }).operations} \\| `, "m"));
  });

  it("a path built to render as an e-mail link, a www. link, emphasis and HTML, with an LF and an RLO in it: code in the step summary, one line in the JUnit XML", async () => {
    const dir = useTempDir("paysim-exec-report-");
    const summary = join(dir, "step-summary.md");
    const path = "/v1/payment_intents/x@evil.example%20www.evil.example%20_em_%20%3Cb%3Eb%3C%2Fb%3E%0A%20%20req_forged:%20forged%E2%80%AE";
    writeFileSync(
      join(dir, "client.mjs"),
      `for (let i = 0; i < 3; i++) await fetch(process.env.PAYSIM_URL + ${JSON.stringify(path)}, { headers: { Authorization: "Bearer " + process.env.PAYSIM_SECRET_KEY } });`,
    );
    const result = await runCli(["exec", "--junit", "r.xml", "--", process.execPath, "client.mjs"], { cwd: dir, env: { GITHUB_STEP_SUMMARY: summary } });
    expect(result.code).toBe(0);
    const html = micromark(readFileSync(summary, "utf8"), { allowDangerousHtml: true, extensions: [gfm()], htmlExtensions: [gfmHtml()] });
    expect(html).toContain(
      "<code>GET /v1/payment_intents/x@evil.example www.evil.example _em_ &lt;b&gt;b&lt;%2Fb&gt;\\u000a  req_forged: forged\\u202e got 404 3 times in a row</code>",
    );
    expect(html).not.toMatch(/<(a|em|img|b)[\s>]/);
    expect(html).not.toContain("\u202e");
    const failure = readJunit(join(dir, "r.xml")).cases.get("retried_client_error")!.failure!["#text"];
    expect(failure.split("\n").filter((line) => line.includes("req_"))).toEqual([
      expect.stringMatching(/^ {2}req_\w+: GET .*\\u000a {2}req_forged: forged\\u202e got 404 3 times in a row$/),
    ]);
  });

  it("refuses a GITHUB_STEP_SUMMARY that is a symbolic link, or the --db, before the command runs", async () => {
    const dir = useTempDir("paysim-exec-report-");
    writeFileSync(join(dir, "notes.md"), "mine\n");
    symlinkSync(join(dir, "notes.md"), join(dir, "summary-link.md"));
    const linked = await execClient(dir, [], "right", 0, { GITHUB_STEP_SUMMARY: join(dir, "summary-link.md") });
    expect(linked.code).toBe(1);
    expect(linked.stdout).toBe("");
    expect(linked.stderr).toMatch(/GITHUB_STEP_SUMMARY .*summary-link\.md: it is a symbolic link.*; the command was not run\.\n$/);
    const onDb = await execClient(dir, ["--db", "shop.db"], "right", 0, { GITHUB_STEP_SUMMARY: join(dir, "shop.db") });
    expect(onDb.code).toBe(1);
    expect(onDb.stderr).toMatch(/GITHUB_STEP_SUMMARY .*shop\.db: it is the database in use \(--db\)/);
    expect(readFileSync(join(dir, "notes.md"), "utf8")).toBe("mine\n");
  });

  it("refuses a bad --fail-on before the command runs, as a usage error", async () => {
    const dir = useTempDir("paysim-exec-report-");
    const result = await execClient(dir, ["--report", "r.json", "--fail-on", "errors,uncovered:payments"], "wrong");
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(/^paysim exec: --fail-on "errors,uncovered:payments" is invalid: "uncovered:payments" is not a condition/m);
    expect(result.stderr).toContain("uncovered:faults");
  });

  it.each([
    ["--report onto the --db", ["--db", "shop.db", "--report", "shop.db"], /Cannot write the run report shop\.db: it is the database in use \(--db\)/],
    [
      "--junit onto the --config",
      ["--config", "paysim.config.json", "--junit", "paysim.config.json"],
      /Cannot write the JUnit report paysim\.config\.json: it is the config file/,
    ],
    [
      "--junit onto an XML file paysim did not write",
      ["--junit", "other.xml"],
      /Cannot write the JUnit report other\.xml: it does not start with the mark of a JUnit report paysim wrote/,
    ],
    ["--report onto a coverage report", ["--report", "coverage.json"], /Cannot write the run report coverage\.json: it is not a run report paysim wrote/],
    [
      "--report where --coverage goes",
      ["--coverage", "same.json", "--report", "same.json"],
      /Cannot write the run report same\.json: it is the same file as the coverage report \(same\.json\)/,
    ],
  ])("refuses %s before the command runs, in one line, and leaves the file as it was", async (_name, options, message) => {
    const dir = useTempDir("paysim-exec-report-");
    writeFileSync(join(dir, "paysim.config.json"), "{}\n");
    writeFileSync(join(dir, "other.xml"), '<?xml version="1.0"?>\n<testsuite name="mine"/>\n');
    writeFileSync(join(dir, "coverage.json"), '{"object": "coverage"}\n');
    const result = await execClient(dir, options, "right");
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(message);
    expect(result.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(readFileSync(join(dir, "other.xml"), "utf8")).toBe('<?xml version="1.0"?>\n<testsuite name="mine"/>\n');
    expect(readFileSync(join(dir, "coverage.json"), "utf8")).toBe('{"object": "coverage"}\n');
  });

  it.each([
    [
      "--junit into a folder linked to the --report's",
      ["--report", "a/r.json", "--junit", "b/r.json"],
      {},
      /^paysim: Cannot write the JUnit report b\/r\.json: it is the same file as the run report \(a\/r\.json\)/,
    ],
    [
      "--report onto a hard link of the --coverage",
      ["--report", "a/old.json", "--coverage", "hard.json"],
      {},
      /^paysim: Cannot write the run report a\/old\.json: it is the same file as the coverage report \(hard\.json\)/,
    ],
    [
      "GITHUB_STEP_SUMMARY onto the --report",
      ["--report", "r.json"],
      { GITHUB_STEP_SUMMARY: "DIR/r.json" },
      /^paysim: Cannot append the run summary to GITHUB_STEP_SUMMARY DIR\/r\.json: it is the run report \(r\.json\)/,
    ],
    [
      "GITHUB_STEP_SUMMARY through a linked folder onto the --junit",
      ["--junit", "a/r.xml"],
      { GITHUB_STEP_SUMMARY: "DIR/b/r.xml" },
      /^paysim: Cannot append the run summary to GITHUB_STEP_SUMMARY DIR\/b\/r\.xml: it is the JUnit report \(a\/r\.xml\)/,
    ],
  ])("refuses %s before the command runs: the files are compared by what they are, not how they are named", async (_name, options, env, message) => {
    const dir = useTempDir("paysim-exec-report-");
    mkdirSync(join(dir, "a"));
    symlinkSync("a", join(dir, "b"));
    writeFileSync(join(dir, "a", "old.json"), ""); // empty: either kind may be written there
    linkSync(join(dir, "a", "old.json"), join(dir, "hard.json"));
    const environment = Object.fromEntries(Object.entries(env).map(([name, value]) => [name, value.replace("DIR", dir)]));
    const result = await execClient(dir, options, "right", 0, environment);
    expect({ code: result.code, stdout: result.stdout }).toEqual({ code: 1, stdout: "" });
    expect(result.stderr.replaceAll(dir, "DIR")).toMatch(message);
    expect(result.stderr).toMatch(/; the command was not run\.\n$/);
    expect(result.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(readdirSync(join(dir, "a")).sort()).toEqual(["old.json"]);
    expect(readFileSync(join(dir, "a", "old.json"), "utf8")).toBe("");
  });

  it("replaces its own earlier JUnit report", async () => {
    const dir = useTempDir("paysim-exec-report-");
    expect((await execClient(dir, ["--junit", "r.xml"], "wrong")).code).toBe(0);
    expect(readJunit(join(dir, "r.xml")).suite["@_failures"]).toBe("1");
    expect((await execClient(dir, ["--junit", "r.xml"], "right")).code).toBe(0);
    expect(readJunit(join(dir, "r.xml")).suite["@_failures"]).toBe("0");
  });
});

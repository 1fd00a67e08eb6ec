// `paysim report` over a real server: the findings first, then the coverage; --json and --markdown.
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { usePaysim } from "../helpers/disposables.js";
import type { TestPaysim } from "../helpers/paysim.js";
import { coverageRatios } from "../helpers/coverage-totals.js";

const ORDER = { amount: 4200, description: "Order 42" };

/** The mistake new_key_on_retry names: a creation whose answer was lost, sent again under a new key. Answers the retry's request id. */
async function retryLostCreationUnderNewKey(paysim: TestPaysim): Promise<string> {
  await paysim.api("POST", "/v1/sandbox/faults", { body: { fault: "lost_response", match: { method: "POST", path: "/v1/payment_intents" }, times: 1 } });
  await expect(paysim.api("POST", "/v1/payment_intents", { body: ORDER, idempotencyKey: "order-42-a" })).rejects.toThrow();
  const again = await paysim.api("POST", "/v1/payment_intents", { body: ORDER, idempotencyKey: "order-42-b" });
  expect(again.status).toBe(201);
  return again.body.request_id as string;
}

const reportOf = (paysim: TestPaysim, ...flags: string[]) => runCli(["report", ...flags, "--url", paysim.url, "--key", paysim.secretKey]);

describe("paysim report", () => {
  it("prints the findings first (severity, code, count, title, advice, examples with request ids), then the coverage table", async () => {
    const paysim = await usePaysim();
    const requestId = await retryLostCreationUnderNewKey(paysim);
    const { code, stdout, stderr } = await reportOf(paysim);
    expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
    const lines = stdout.split("\n");
    expect(lines.slice(0, 4)).toEqual([
      "Findings: 1 error, 0 warnings",
      "",
      "error  new_key_on_retry  (1 time)",
      "  A creation that got no answer or a 5xx was retried under a new Idempotency-Key",
    ]);
    expect(lines[4]).toMatch(/^ {2}Advice: Keep the Idempotency-Key of a creation until it has an answer/);
    expect(lines).toContain("  Examples:");
    expect(stdout).toMatch(new RegExp(`^ {2}Examples:\\n {4}${requestId}: POST /v1/payment_intents repeated ${requestId}`, "m"));
    const coverage = lines.indexOf("Coverage:");
    expect(coverage).toBeGreaterThan(4);
    const ratio = coverageRatios({ operations: 1, events: 1, faults: 1 });
    expect(lines.slice(coverage + 1, coverage + 8)).toEqual([
      "AREA         COVERED",
      `operations   ${ratio.operations}`,
      `transitions  ${ratio.transitions}`,
      `events       ${ratio.events}`,
      `webhooks     ${ratio.webhooks}`,
      `errors       ${ratio.errors}`,
      `faults       ${ratio.faults}`,
    ]);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(100);
  });

  it('says "No findings." for a well-behaved client', async () => {
    const paysim = await usePaysim();
    expect((await paysim.api("POST", "/v1/payment_intents", { body: ORDER, idempotencyKey: "order-42" })).status).toBe(201);
    const { code, stdout } = await reportOf(paysim);
    expect(code).toBe(0);
    expect(stdout.split("\n").slice(0, 5)).toEqual(["Findings: 0 errors, 0 warnings", "", "No findings.", "", "Coverage:"]);
  });

  it("prints the whole report with --json", async () => {
    const paysim = await usePaysim();
    const requestId = await retryLostCreationUnderNewKey(paysim);
    const { code, stdout } = await reportOf(paysim, "--json");
    expect(code).toBe(0);
    const report = JSON.parse(stdout);
    expect(report).toMatchObject({
      object: "report",
      version: 1,
      summary: { findings: { error: 1, warning: 0 } },
      findings: [{ code: "new_key_on_retry", severity: "error", count: 1, examples: [{ request_id: requestId }] }],
      coverage: { object: "coverage", operations: { createPaymentIntent: { calls: 2 } } },
    });
    expect(report.request_id).toMatch(/^req_/);
  });

  it("prints a Markdown summary with --markdown: the findings' table, then the coverage table", async () => {
    const paysim = await usePaysim();
    const requestId = await retryLostCreationUnderNewKey(paysim);
    const { code, stdout } = await reportOf(paysim, "--markdown");
    expect(code).toBe(0);
    const lines = stdout.trimEnd().split("\n");
    expect(lines.slice(0, 6)).toEqual([
      "## paysim run report",
      "",
      "**Findings:** 1 error, 0 warnings",
      "",
      "| severity | code | count | title | advice | examples |",
      "|---|---|---|---|---|---|",
    ]);
    expect(lines[6]).toMatch(
      new RegExp(`^\\| error \\| \`new_key_on_retry\` \\| 1 \\| A creation .* \\| \`${requestId}\`: \`POST /v1/payment_intents repeated`),
    );
    expect(lines.slice(8, 12)).toEqual(["**Coverage**", "", "| area | covered | never gone through |", "|---|---|---|"]);
    const ratio = coverageRatios({ operations: 1, faults: 1 });
    expect(lines[12]!.startsWith(`| operations | ${ratio.operations} | listPaymentIntents, `)).toBe(true);
    expect(lines.at(-1)).toBe(`| faults | ${ratio.faults} | server_error, rate_limited, timeout, latency |`);
  });

  it("refuses --json with --markdown", async () => {
    const paysim = await usePaysim();
    const { code, stderr } = await reportOf(paysim, "--json", "--markdown");
    expect(code).toBe(1);
    expect(stderr).toMatch(/paysim report: .*--markdown.*--json|paysim report: .*--json.*--markdown/);
  });
});

// The JUnit XML of a run report holds any text a finding's example carries (a request path is the
// client's), read back whole by an XML parser; the Markdown summary keeps such text as code in its cell
// (test/server/report-text.test.ts renders it with a GFM renderer).
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import type { CoverageReport } from "../../src/domain/coverage-report.js";
import { FINDING_RULES } from "../../src/domain/findings.js";
import { runReport } from "../../src/domain/run-report.js";
import { junitXml } from "../../src/cli/run-report/junit.js";
import { reportMarkdown } from "../../src/cli/run-report/markdown.js";

const HOSTILE = `GET /v1/payment_intents/<x>&"it's"]]></failure><!-- \u0001\u001b[31m\ud800 | **bold** \nnext`;

const COVERAGE = {
  object: "coverage",
  version: 1,
  since: "2026-11-27T00:00:00.000Z",
  instances: 0,
  uncovered: { operations: ["a<b"], transitions: [], events: [], webhooks: [], errors: [], faults: [] },
  summary: { operations: "15/16", transitions: "11/11", events: "12/12", webhooks: "10/10", errors: "9/9", faults: "5/5" },
} as unknown as CoverageReport;

const REPORT = runReport(COVERAGE, [
  { ...FINDING_RULES.retried_client_error, count: 3, first_seen_at: COVERAGE.since, examples: [{ request_id: "req_1", detail: HOSTILE }] },
]);

describe("the run report's JUnit XML and Markdown", () => {
  it("escape what an example carries: the XML is well-formed and its failure holds the text, without what XML 1.0 cannot hold", () => {
    const xml = junitXml(REPORT, ["uncovered:operations"]);
    expect(XMLValidator.validate(xml)).toBe(true);
    const suite = new XMLParser({ ignoreAttributes: false, processEntities: true }).parse(xml).testsuite;
    const failed = suite.testcase.filter((testCase: { failure?: unknown }) => testCase.failure);
    expect(failed.map((testCase: { "@_name": string }) => testCase["@_name"])).toEqual(["retried_client_error", "operations"]);
    const text: string = failed[0].failure["#text"];
    // Controls and line breaks written as their escapes: the example stays one line.
    expect(text).toContain(`GET /v1/payment_intents/<x>&"it's"]]></failure><!-- \\u0001\\u001b[31m\ufffd | **bold** \\u000anext`);
    expect(failed[1].failure["#text"]).toContain("a<b");
  });

  it("keep an example's text on its one table row in the Markdown, with nothing read as markup", () => {
    const row = reportMarkdown(REPORT)
      .split("\n")
      .find((line) => line.includes("retried_client_error"))!;
    expect(row).toContain('`req_1`: ` GET /v1/payment_intents/<x>&"it\'s"]]></failure><!-- \\u0001\\u001b[31m');
    expect(row).toContain("`\\|`  **bold** \\u000anext ` |");
    expect(row.split(/(?<!\\)\|/)).toHaveLength(8);
  });
});

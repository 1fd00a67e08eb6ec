// Text that came from requests cannot change what a run report shows: real requests with hostile
// paths raise retried_client_error, and its example is rendered by the real report functions. The
// Markdown goes through a GFM renderer (micromark with every GitHub extension: autolink literals,
// tables, strikethrough), the JUnit XML through an XML parser, the text report line by line.
import { XMLParser } from "fast-xml-parser";
import { micromark } from "micromark";
import { gfm, gfmHtml } from "micromark-extension-gfm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { junitXml } from "../../src/cli/run-report/junit.js";
import { reportMarkdown } from "../../src/cli/run-report/markdown.js";
import { reportLines } from "../../src/cli/run-report/text.js";
import type { RunReport } from "../../src/domain/run-report.js";
import { escapeControls } from "../../src/domain/terminal-text.js";
import { startTestPaysim, type TestPaysim } from "../helpers/paysim.js";

let paysim: TestPaysim;
beforeAll(async () => {
  paysim = await startTestPaysim({ db: ":memory:" });
});
afterAll(() => paysim.dispose());

/** Paths a client may send, each with what a renderer could make of it. */
const HOSTILE: [string, string][] = [
  ["an e-mail autolink", "/v1/payment_intents/x@evil.example"],
  ["a www. autolink", "/v1/payment_intents/www.evil.example"],
  ["emphasis", "/v1/payment_intents/_em_"],
  ["strong emphasis", "/v1/payment_intents/**b**"],
  ["an image", "/v1/payment_intents/!%5Bi%5D(https:%2F%2Fevil.example%2Fi.png)"],
  ["a link", "/v1/payment_intents/%5Bclick%5D(https:%2F%2Fevil.example)"],
  ["raw HTML", "/v1/payment_intents/%3Cb%3Ebold%3C%2Fb%3E%3Cimg%20src=x%3E"],
  ["strikethrough", "/v1/payment_intents/~~gone~~"],
  ["a right-to-left override", "/v1/payment_intents/%E2%80%AEtxt.exe"],
  ["isolates and marks", "/v1/payment_intents/%E2%81%A6a%E2%81%A9%E2%80%8Fb"],
  ["a line feed", "/v1/payment_intents/x%0A%20%20req_forged:%20forged%20line"],
  ["a carriage return and a line separator", "/v1/payment_intents/x%0D%E2%80%A8y%E2%80%A9z%C2%85w"],
  ["pipes that would end the cell", "/v1/payment_intents/a%7Cb%5C%7Cc%5C%5C%7C%20%7C%20d"],
  ["backticks that would end the code", "/v1/payment_intents/%60a%60%60b%60%60%60%20"],
];

/** The three 404s of one path in a row, and the report that follows them (findings cleared before). */
async function reportOf(path: string): Promise<{ report: RunReport; requestIds: string[] }> {
  expect((await paysim.api("DELETE", "/v1/sandbox/coverage")).status).toBe(200);
  const requestIds: string[] = [];
  for (let i = 0; i < 3; i++) {
    const answer = await paysim.api("GET", path);
    expect(answer.status).toBe(404);
    requestIds.push(answer.headers.get("request-id")!);
  }
  const report = await paysim.report();
  expect(report.findings.map((finding) => [finding.code, finding.count])).toEqual([["retried_client_error", 1]]);
  return { report, requestIds };
}

// eslint-disable-next-line no-control-regex -- controls and line breaks are what must not come through
const BIDI_AND_BREAKS = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/;

/** What HTML entities micromark writes, read back. */
const unescapeHtml = (html: string) =>
  html
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");

describe("request-derived text in the run report", () => {
  it.each(HOSTILE)("Markdown under a GFM renderer: %s in a path stays code on its table row", async (_name, path) => {
    const { report, requestIds } = await reportOf(path);
    const detail = report.findings[0]!.examples[0]!.detail;
    const markdown = reportMarkdown(report);
    const html = micromark(markdown, { allowDangerousHtml: true, extensions: [gfm()], htmlExtensions: [gfmHtml()] });
    // The report's own two bold words are the only <strong>; nothing else renders as markup.
    expect(html.match(/<strong>/g)).toHaveLength(2);
    expect(html).not.toMatch(/<(a|em|img|del|b|i|script)[\s>/]/i);
    expect(html.replace(/\n/g, "")).not.toMatch(BIDI_AND_BREAKS);
    const row =
      /<tr>\s*<td>warning<\/td>\s*<td><code>retried_client_error<\/code><\/td>\s*<td>1<\/td>\s*<td>[^<]*<\/td>\s*<td>[^<]*<\/td>\s*<td>(.*?)<\/td>\s*<\/tr>/s.exec(
        html,
      );
    expect(row, html).not.toBeNull();
    // The examples cell: the request id and the detail, each only code text (pipes between code spans).
    const cell = row![1]!;
    expect(cell).toMatch(/^<code>req_\w+<\/code>: (<code>[^<]*<\/code>|\|)+$/);
    const shown = unescapeHtml(cell.replace(/^<code>req_\w+<\/code>: /, "").replace(/<\/?code>/g, ""));
    expect(shown).toBe(escapeControls(detail));
    expect(cell).toContain(`<code>${requestIds[2]}</code>`);
  });

  it.each(HOSTILE.filter(([, path]) => /%(0A|0D|E2%80%AE|E2%81%A6)/.test(path)))(
    "JUnit XML and the text report: %s in a path forges no line and reorders none",
    async (_name, path) => {
      const { report, requestIds } = await reportOf(path);
      const parsed = new XMLParser({ ignoreAttributes: false }).parse(junitXml(report, []));
      const failed = parsed.testsuite.testcase.filter((testCase: { failure?: unknown }) => testCase.failure);
      expect(failed.map((testCase: { "@_name": string }) => testCase["@_name"])).toEqual(["retried_client_error"]);
      const failure = (failed[0].failure["#text"] as string).split(/\r\n|[\n\r\u2028\u2029\u0085]/);
      // The advice, a blank line, "Examples:", then one line per example.
      expect(failure).toHaveLength(3 + report.findings[0]!.examples.length);
      expect(failure.slice(3)).toEqual([`  ${requestIds[2]}: ${escapeControls(report.findings[0]!.examples[0]!.detail)}`]);
      expect(failure.join("")).not.toMatch(BIDI_AND_BREAKS);

      const lines = reportLines(report);
      expect(lines.join("\n").split(/\r\n|[\n\r\u2028\u2029\u0085]/)).toHaveLength(lines.length);
      expect(lines.join("")).not.toMatch(BIDI_AND_BREAKS);
      expect(lines.filter((line) => line.startsWith(`    ${requestIds[2]}: GET /v1/payment_intents/`))).toHaveLength(1);
    },
  );
});

import { COVERAGE_AREAS } from "../../domain/coverage-report.js";
import { FINDING_CODES, FINDING_RULES } from "../../domain/findings.js";
import type { RunReport } from "../../domain/run-report.js";
import { escapeControls } from "../../domain/terminal-text.js";
import { JUNIT_MARK } from "../output-files.js";
import { uncoveredArea, type FailOnCondition } from "./fail-on.js";

/**
 * Text as XML 1.0 character data or an attribute value: the five special characters escaped,
 * and every character XML 1.0 cannot hold (controls other than tab and line breaks, lone
 * surrogates, U+FFFE and U+FFFF) replaced by U+FFFD, so any parser reads the file.
 */
export function xmlText(text: string): string {
  return (
    text
      // eslint-disable-next-line no-control-regex -- the characters XML 1.0 forbids are what is replaced
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "\ufffd")
      .replace(/&/g, "&amp;")
      .replace(/</g, "&lt;")
      .replace(/>/g, "&gt;")
      .replace(/"/g, "&quot;")
      .replace(/'/g, "&apos;")
  );
}

interface TestCase {
  classname: string;
  name: string;
  failure?: { type: string; message: string; body: string };
  out?: string;
}

/**
 * The run report as JUnit XML, for the test report of a CI: one `testsuite` "paysim", one
 * `testcase` per finding code of the catalogue, failed when raised (its advice and examples in the
 * failure), and one per coverage area, failed only when `failOn` names `uncovered:<area>` and the
 * area left something out. It starts with JUNIT_MARK, by which paysim knows the file as its own.
 */
export function junitXml(report: RunReport, failOn: readonly FailOnCondition[]): string {
  const cases: TestCase[] = FINDING_CODES.map((code) => {
    const finding = report.findings.find((candidate) => candidate.code === code);
    const rule = FINDING_RULES[code];
    if (!finding) return { classname: "paysim.findings", name: code };
    // One line per example: a line break in what came from requests (a path) is written as its
    // `\u` escape, so no line of the failure can be forged.
    const examples = finding.examples.map((example) => {
      const ref = [example.request_id, example.object_id].filter((id) => id !== null && id !== undefined).map((id) => escapeControls(id!));
      return `  ${ref.join(" ") || "—"}: ${escapeControls(example.detail)}`;
    });
    return {
      classname: "paysim.findings",
      name: code,
      failure: {
        type: rule.severity,
        message: `${rule.title} (${finding.count} time${finding.count === 1 ? "" : "s"})`,
        body: [rule.advice, "", "Examples:", ...examples].join("\n"),
      },
    };
  });
  const failingAreas = new Set(failOn.map(uncoveredArea).filter((area) => area !== undefined));
  for (const area of COVERAGE_AREAS) {
    const uncovered = report.coverage.uncovered[area] ?? [];
    const covered = `${area}: ${report.summary.coverage[area] ?? "?"} covered`;
    const left = uncovered.length === 0 ? "nothing left out" : `never gone through: ${uncovered.join(", ")}`;
    cases.push(
      failingAreas.has(area) && uncovered.length > 0
        ? { classname: "paysim.coverage", name: area, failure: { type: "uncovered", message: `${covered}; --fail-on uncovered:${area}`, body: left } }
        : { classname: "paysim.coverage", name: area, out: `${covered}; ${left}` },
    );
  }
  const failures = cases.filter((testCase) => testCase.failure).length;
  const lines = [`<testsuite name="paysim" tests="${cases.length}" failures="${failures}" errors="0" skipped="0">`];
  for (const testCase of cases) {
    const open = `  <testcase classname="${testCase.classname}" name="${xmlText(testCase.name)}"`;
    if (testCase.failure) {
      const { type, message, body } = testCase.failure;
      lines.push(`${open}>`, `    <failure type="${xmlText(type)}" message="${xmlText(message)}">${xmlText(body)}</failure>`, "  </testcase>");
    } else if (testCase.out !== undefined) {
      lines.push(`${open}>`, `    <system-out>${xmlText(testCase.out)}</system-out>`, "  </testcase>");
    } else lines.push(`${open}/>`);
  }
  lines.push("</testsuite>");
  return `${JUNIT_MARK}${lines.join("\n")}\n`;
}

import { describe, expect, it } from "vitest";
import { resultLines } from "../../src/cli/commands/check-receiver.js";
import { gradeCase, summarize } from "../../src/domain/receiver-check.js";
import type { CaseResult } from "../../src/webhooks/receiver-check.js";

const input = { url: "http://127.0.0.1:3000/webhooks", timeoutMs: 20_000 };
const answers = (statusCode: number, durationMs = 3) => [{ statusCode, error: null, durationMs }];
const results: CaseResult[] = [
  { case: "valid", sent: "payment_intent.captured, correctly signed", expected: "2xx", answers: answers(200), ...gradeCase("2xx", answers(200), 20_000) },
  { case: "wrong-secret", sent: "signed with another secret", expected: "4xx", answers: answers(200), ...gradeCase("4xx", answers(200), 20_000) },
  {
    case: "stale-timestamp",
    sent: "a correct signature, t 10 minutes old",
    expected: "4xx",
    answers: answers(401, 6_000),
    ...gradeCase("4xx", answers(401, 6_000), 20_000),
  },
];
const summary = summarize(results.map((r) => r.verdict));

describe("the check-receiver report", () => {
  it("colours the verdicts in a terminal: pass green, warn yellow, FAIL red", () => {
    const lines = resultLines(input, results, summary, true);
    expect(lines.find((line) => line.startsWith("valid"))).toContain("\u001b[32mpass\u001b[39m");
    expect(lines.find((line) => line.startsWith("wrong-secret"))).toContain("\u001b[31mFAIL\u001b[39m");
    expect(lines.find((line) => line.startsWith("stale-timestamp"))).toContain("\u001b[33mwarn\u001b[39m");
    expect(lines.at(-1)?.startsWith("\u001b[31mFAIL\u001b[39m 1 passed, 1 warned, 1 failed of 3 cases"), lines.at(-1)).toBe(true);
  });

  it("is plain text without colour, a line per case that did not pass under the table", () => {
    expect(resultLines(input, results, summary, false)).toEqual([
      "CASE             SENT                                       EXPECTED  GOT  TIME     VERDICT",
      "valid            payment_intent.captured, correctly signed  2xx       200  3 ms     pass",
      "wrong-secret     signed with another secret                 4xx       200  3 ms     FAIL",
      "stale-timestamp  a correct signature, t 10 minutes old      4xx       401  6000 ms  warn",
      "",
      "FAIL wrong-secret: answered 200, expected 4xx. Fix: verify the signature with the endpoint's own secret, and answer 4xx when it does not match.",
      "warn stale-timestamp: took 6000 ms; answer within 5000 ms, the limit is 20000 ms.",
      "",
      "FAIL 1 passed, 1 warned, 1 failed of 3 cases against http://127.0.0.1:3000/webhooks (limit 20000 ms, warning from 5000 ms)",
    ]);
  });
});

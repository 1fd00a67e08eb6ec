import { describe, expect, it } from "vitest";
import {
  gradeCase,
  gradeReceiverCase,
  isUnreachable,
  parseOnly,
  RECEIVER_CASES,
  summarize,
  warnAfterMs,
  type Answer,
  type ExpectedClass,
  type Verdict,
} from "../../src/domain/receiver-check.js";

const answer = (statusCode: number | null, durationMs = 3, error: string | null = null): Answer => ({ statusCode, error, durationMs });
const LIMIT = 20_000;

describe("gradeCase", () => {
  const rows: { name: string; expected: ExpectedClass; answers: Answer[]; timeoutMs?: number; verdict: Verdict; got: string; reason?: RegExp }[] = [
    { name: "a 200 where a 2xx is expected", expected: "2xx", answers: [answer(200)], verdict: "pass", got: "200" },
    { name: "a 204 where a 2xx is expected", expected: "2xx", answers: [answer(204)], verdict: "pass", got: "204" },
    { name: "a 400 where a 4xx is expected", expected: "4xx", answers: [answer(400)], verdict: "pass", got: "400" },
    { name: "a 401 where a 4xx is expected", expected: "4xx", answers: [answer(401)], verdict: "pass", got: "401" },
    { name: "a 200 where a 4xx is expected", expected: "4xx", answers: [answer(200)], verdict: "FAIL", got: "200", reason: /^answered 200, expected 4xx$/ },
    {
      name: "a 500 where a 4xx is expected, saying why a 5xx is wrong",
      expected: "4xx",
      answers: [answer(500)],
      verdict: "FAIL",
      got: "500",
      reason: /5xx makes the service retry/,
    },
    { name: "a 400 where a 2xx is expected", expected: "2xx", answers: [answer(400)], verdict: "FAIL", got: "400", reason: /expected 2xx/ },
    { name: "a 302 where a 2xx is expected", expected: "2xx", answers: [answer(302)], verdict: "FAIL", got: "302", reason: /expected 2xx/ },
    { name: "a 500 where a 2xx is expected", expected: "2xx", answers: [answer(500)], verdict: "FAIL", got: "500", reason: /^answered 500, expected 2xx$/ },
    { name: "two 200s where a 2xx is expected", expected: "2xx", answers: [answer(200), answer(200)], verdict: "pass", got: "200, 200" },
    { name: "a 200 then a 500 (the second answer fails the case)", expected: "2xx", answers: [answer(200), answer(500)], verdict: "FAIL", got: "200, 500" },
    {
      name: "no answer before the limit",
      expected: "2xx",
      answers: [answer(null, LIMIT, `timeout: no response within ${LIMIT} ms`)],
      verdict: "FAIL",
      got: "timeout",
      reason: /^timeout/,
    },
    { name: "a refused connection", expected: "4xx", answers: [answer(null, 1, "connection refused")], verdict: "FAIL", got: "connection refused" },
    { name: "a right answer just under the warning", expected: "2xx", answers: [answer(200, 4_999)], verdict: "pass", got: "200" },
    { name: "a right answer at the warning", expected: "2xx", answers: [answer(200, 5_000)], verdict: "warn", got: "200", reason: /took 5000 ms/ },
    {
      name: "a right answer at the limit",
      expected: "2xx",
      answers: [answer(200, LIMIT)],
      verdict: "FAIL",
      got: "200",
      reason: /at or past the 20000 ms limit/,
    },
    { name: "a wrong answer past the warning (the failure wins)", expected: "4xx", answers: [answer(200, 6_000)], verdict: "FAIL", got: "200" },
    { name: "a warning under a lowered limit (a quarter of it)", expected: "4xx", answers: [answer(400, 250)], timeoutMs: 1_000, verdict: "warn", got: "400" },
    { name: "a pass under a lowered limit", expected: "4xx", answers: [answer(400, 249)], timeoutMs: 1_000, verdict: "pass", got: "400" },
  ];

  it.each(rows)("$name: $verdict", ({ expected, answers, timeoutMs, verdict, got, reason }) => {
    const grade = gradeCase(expected, answers, timeoutMs ?? LIMIT);
    expect(grade.verdict).toBe(verdict);
    expect(grade.got).toBe(got);
    expect(grade.durationMs).toBe(Math.max(...answers.map((a) => a.durationMs)));
    if (verdict === "pass") expect(grade.reason).toBeNull();
    else expect(grade.reason).toMatch(reason ?? /./);
  });
});

describe("warnAfterMs", () => {
  it.each([
    [20_000, 5_000],
    [1_000, 250],
    [2, 1],
  ])("warns from a quarter of a %i ms limit: %i ms", (limit, warn) => {
    expect(warnAfterMs(limit)).toBe(warn);
  });
});

describe("gradeReceiverCase", () => {
  const ok = (durationMs = 3) => ({ statusCode: 200, error: null, durationMs });
  it("warns on a duplicate answered 2xx twice: paysim cannot see a second processing", () => {
    expect(gradeReceiverCase("duplicate", [ok(), ok()], 20_000)).toMatchObject({
      verdict: "warn",
      reason: expect.stringContaining("deduplicates on the event id (Service-Event-Id)"),
    });
  });
  it("keeps a slow duplicate's warning and adds the caveat", () => {
    expect(gradeReceiverCase("duplicate", [ok(), ok(6_000)], 20_000).reason).toMatch(
      /^took 6000 ms; answer within 5000 ms, the limit is 20000 ms; answered 2xx both times/,
    );
  });
  it("fails a duplicate answered 500 as before, and passes the other cases on their answers alone", () => {
    expect(gradeReceiverCase("duplicate", [ok(), { statusCode: 500, error: null, durationMs: 3 }], 20_000).verdict).toBe("FAIL");
    expect(gradeReceiverCase("valid", [ok()], 20_000)).toMatchObject({ verdict: "pass", reason: null });
  });
});

describe("summarize", () => {
  it.each<[Verdict[], { passed: number; warned: number; failed: number; notRun: number; exitCode: 0 | 1 }]>([
    [["pass", "pass"], { passed: 2, warned: 0, failed: 0, notRun: 0, exitCode: 0 }],
    [["pass", "warn"], { passed: 1, warned: 1, failed: 0, notRun: 0, exitCode: 0 }],
    [["pass", "FAIL", "warn"], { passed: 1, warned: 1, failed: 1, notRun: 0, exitCode: 1 }],
    [["FAIL"], { passed: 0, warned: 0, failed: 1, notRun: 0, exitCode: 1 }],
    [["pass", "FAIL", "not run", "not run"], { passed: 1, warned: 0, failed: 1, notRun: 2, exitCode: 1 }],
  ])("%j → %j", (verdicts, expected) => {
    expect(summarize(verdicts)).toEqual({ ...expected, total: verdicts.length });
  });
});

describe("parseOnly", () => {
  it.each([
    ["valid", ["valid"]],
    ["duplicate,valid", ["valid", "duplicate"]],
    [" stale-timestamp , malformed-signature ", ["stale-timestamp", "malformed-signature"]],
    ["valid,valid", ["valid"]],
    [RECEIVER_CASES.join(","), [...RECEIVER_CASES]],
  ])("%j runs %j", (text, cases) => {
    expect(parseOnly(text)).toEqual({ cases });
  });

  it.each([
    ["vaild", /unknown case "vaild"; the cases are valid, duplicate, out-of-order/],
    ["valid,nope,other", /unknown case "nope", "other"/],
    ["", /names no case/],
    [",", /names no case/],
  ])("refuses %j", (text, problem) => {
    const parsed = parseOnly(text);
    expect("problem" in parsed && parsed.problem).toMatch(problem);
  });
});

describe("isUnreachable", () => {
  it.each([
    ["connection refused", true],
    ["host not found", true],
    ["network error (EHOSTUNREACH)", true],
    ["connection reset", false],
    ["timeout: no response within 1000 ms", false],
    ["timeout: no connection within 1000 ms", true],
    ["answered with headers over 256 KiB, more than paysim reads", false],
    ["answered with something that is not valid HTTP (HPE_INVALID_CONSTANT)", false],
    [null, false],
  ])("%j → %s", (error, unreachable) => {
    expect(isUnreachable(error)).toBe(unreachable);
  });
});

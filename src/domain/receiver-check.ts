/**
 * The grading of `paysim check-receiver` (docs/webhooks.md): which cases there are, what each expects,
 * and the verdict on what a receiver answered. Pure: the requests are made elsewhere.
 */

/** The cases, in the order they run. */
export const RECEIVER_CASES = [
  "valid",
  "duplicate",
  "out-of-order",
  "tampered-body",
  "wrong-secret",
  "stale-timestamp",
  "missing-signature",
  "malformed-signature",
] as const;

export type ReceiverCase = (typeof RECEIVER_CASES)[number];

/** The answer a case expects to every request it sends. */
export type ExpectedClass = "2xx" | "4xx";

export interface CaseSpec {
  /** What is sent, in the words of the table. */
  sent: string;
  expected: ExpectedClass;
  /** What a receiver that fails the case gets wrong, and what to change. */
  advice: string;
  /**
   * What the answers cannot show, said as a warning when they are right: a receiver that acts on
   * a duplicate twice answers 2xx both times all the same.
   */
  caveat?: string;
}

export const CASE_SPECS: Record<ReceiverCase, CaseSpec> = {
  valid: {
    sent: "payment_intent.captured, correctly signed",
    expected: "2xx",
    advice: "verify over the raw body bytes (not re-serialised JSON) with the endpoint's secret, and answer 2xx",
  },
  duplicate: {
    sent: "the same event twice (same id and body)",
    expected: "2xx",
    advice: "deduplicate on the event id (Service-Event-Id) and answer a repeat with a 2xx, as the first",
    caveat:
      "answered 2xx both times, but paysim cannot see whether your receiver acted on the event twice: make sure it deduplicates on the event id (Service-Event-Id), so that a repeat changes nothing",
  },
  "out-of-order": {
    sent: "payment_intent.captured, then .authorized",
    expected: "2xx",
    advice: "answer an older event that arrives late with a 2xx, and ignore what it would undo",
  },
  "tampered-body": {
    sent: "a body changed after it was signed",
    expected: "4xx",
    advice: "verify the signature over the raw body bytes, and answer 4xx when it does not match",
  },
  "wrong-secret": {
    sent: "signed with another secret",
    expected: "4xx",
    advice: "verify the signature with the endpoint's own secret, and answer 4xx when it does not match",
  },
  "stale-timestamp": {
    sent: "a correct signature, t 10 minutes old",
    expected: "4xx",
    advice: "answer 4xx when t is more than 5 minutes from now: it may be a replay",
  },
  "missing-signature": {
    sent: "no Service-Signature header",
    expected: "4xx",
    advice: "answer 4xx to a delivery without a Service-Signature header",
  },
  "malformed-signature": {
    sent: "Service-Signature: v1=zz",
    expected: "4xx",
    advice: "answer 4xx to a signature that cannot be read; never count an error while verifying as a pass",
  },
};

/** How long a receiver has by default: the service's own limit. */
export const DEFAULT_RECEIVER_TIMEOUT_MS = 20_000;

/**
 * An answer slower than this is a warning. A quarter of the limit: 5 s at the default 20 s, and
 * proportionally less under a lowered `--timeout`, so the warning can be tested without waiting 5 s.
 */
export function warnAfterMs(timeoutMs: number): number {
  return Math.round(timeoutMs / 4);
}

/** What one request of a case got: an HTTP status, or why there was none. */
export interface Answer {
  statusCode: number | null;
  /** Why there was no HTTP answer (a timeout, a refused connection); null when there was one. */
  error: string | null;
  durationMs: number;
}

/** "not run": the run stopped before the case, its receiver unreachable (see runReceiverCheck). */
export type Verdict = "pass" | "warn" | "FAIL" | "not run";

export interface Grade {
  verdict: Verdict;
  /** What was got, e.g. "200", "200, 200", "timeout". */
  got: string;
  /** The slowest of the case's requests. */
  durationMs: number;
  /** Why the verdict is not a pass; null for a pass. */
  reason: string | null;
}

/** Whether `status` is of the expected class. */
function matches(expected: ExpectedClass, status: number): boolean {
  return expected === "2xx" ? status >= 200 && status <= 299 : status >= 400 && status <= 499;
}

/** Why one answer fails its expectation, or null when it does not. */
function failure(expected: ExpectedClass, answer: Answer, timeoutMs: number): string | null {
  if (answer.statusCode === null) return answer.error ?? "no answer";
  if (answer.durationMs >= timeoutMs) return `answered after ${answer.durationMs} ms, at or past the ${timeoutMs} ms limit`;
  if (matches(expected, answer.statusCode)) return null;
  if (expected === "4xx" && answer.statusCode >= 500 && answer.statusCode <= 599) {
    return `answered ${answer.statusCode}: a 5xx makes the service retry a delivery that can never verify; answer 4xx`;
  }
  return `answered ${answer.statusCode}, expected ${expected}`;
}

/** How an answer reads in the table: its status, or the short form of why there was none. */
function shown(answer: Answer): string {
  if (answer.statusCode !== null) return String(answer.statusCode);
  return answer.error?.startsWith("timeout") ? "timeout" : (answer.error ?? "no answer");
}

/**
 * The verdict on a case from the answers to its requests: FAIL when any answer is not of the
 * expected class, or has none, or came at or past the limit; warn when every answer is right but
 * one took `warnAfterMs(timeoutMs)` or more; pass otherwise.
 *
 * @example
 * gradeCase("4xx", [{ statusCode: 200, error: null, durationMs: 3 }], 20_000);
 * // { verdict: "FAIL", got: "200", durationMs: 3, reason: "answered 200, expected 4xx" }
 */
export function gradeCase(expected: ExpectedClass, answers: readonly Answer[], timeoutMs: number): Grade {
  const got = answers.map(shown).join(", ");
  const durationMs = Math.max(0, ...answers.map((answer) => answer.durationMs));
  const failed = answers.map((answer) => failure(expected, answer, timeoutMs)).find((reason) => reason !== null);
  if (failed) return { verdict: "FAIL", got, durationMs, reason: failed };
  const warnMs = warnAfterMs(timeoutMs);
  if (durationMs >= warnMs)
    return { verdict: "warn", got, durationMs, reason: `took ${durationMs} ms; answer within ${warnMs} ms, the limit is ${timeoutMs} ms` };
  return { verdict: "pass", got, durationMs, reason: null };
}

/**
 * The verdict on one case of the battery: gradeCase on its answers, and the case's caveat as a
 * warning when the answers alone would pass it.
 *
 * @example
 * gradeReceiverCase("duplicate", [ok, ok], 20_000).verdict // "warn": paysim cannot see a second processing
 */
export function gradeReceiverCase(name: ReceiverCase, answers: readonly Answer[], timeoutMs: number): Grade {
  const spec = CASE_SPECS[name];
  const grade = gradeCase(spec.expected, answers, timeoutMs);
  if (spec.caveat === undefined || grade.verdict === "FAIL") return grade;
  return { ...grade, verdict: "warn", reason: grade.reason === null ? spec.caveat : `${grade.reason}; ${spec.caveat}` };
}

export interface Summary {
  passed: number;
  warned: number;
  failed: number;
  /** Cases left unsent once the receiver was found unreachable. */
  notRun: number;
  total: number;
  /** 0 when no case failed (warnings included), 1 otherwise. */
  exitCode: 0 | 1;
}

/**
 * The counts of a run's verdicts and its exit status.
 *
 * @example
 * summarize(["pass", "warn"]) // { passed: 1, warned: 1, failed: 0, notRun: 0, total: 2, exitCode: 0 }
 */
export function summarize(verdicts: readonly Verdict[]): Summary {
  const count = (verdict: Verdict) => verdicts.filter((v) => v === verdict).length;
  const failed = count("FAIL");
  return { passed: count("pass"), warned: count("warn"), failed, notRun: count("not run"), total: verdicts.length, exitCode: failed > 0 ? 1 : 0 };
}

/**
 * The cases `--only` names (comma-separated, in the order they run), or the problem with it.
 *
 * @example
 * parseOnly("duplicate,valid") // { cases: ["valid", "duplicate"] }
 * parseOnly("vaild")           // { problem: 'unknown case "vaild"; the cases are valid, duplicate, …' }
 */
export function parseOnly(text: string): { cases: ReceiverCase[] } | { problem: string } {
  const names = text
    .split(",")
    .map((name) => name.trim())
    .filter((name) => name !== "");
  const unknown = names.filter((name) => !(RECEIVER_CASES as readonly string[]).includes(name));
  if (names.length === 0 || unknown.length > 0) {
    const what = names.length === 0 ? "names no case" : `has an unknown case ${unknown.map((name) => JSON.stringify(name)).join(", ")}`;
    return { problem: `--only ${what}; the cases are ${RECEIVER_CASES.join(", ")}.` };
  }
  return { cases: RECEIVER_CASES.filter((name) => names.includes(name)) };
}

/**
 * Whether a request's failure means nothing answered at the address at all (refused, no such
 * host, no route, or no connection made within the limit: a host that drops packets), as opposed
 * to a receiver that took the connection and then timed out, dropped it, or answered something
 * that is not HTTP.
 */
export function isUnreachable(error: string | null): boolean {
  return (
    error !== null &&
    (error === "connection refused" || error === "host not found" || error.startsWith("network error") || error.startsWith("timeout: no connection"))
  );
}

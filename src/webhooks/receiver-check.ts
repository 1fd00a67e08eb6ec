import { randomBytes } from "node:crypto";
import { CASE_SPECS, gradeReceiverCase, isUnreachable, type Answer, type Grade, type ReceiverCase } from "../domain/receiver-check.js";
import { deliveryHeaders } from "./delivery-headers.js";
import { createWebhookClient } from "./http-client.js";
import { realTimers, type Timers } from "../runtime/timers.js";
import { wallClockSeconds } from "./sign.js";

/**
 * Sends the deliveries of `paysim check-receiver` (docs/webhooks.md) with the webhook sender paysim
 * delivers with, and grades each case's answers (domain/receiver-check.ts).
 */

/** The events of one payment intent a case sends: the raw JSON bodies, as paysim delivers them. */
export interface IntentEvents {
  authorized: string;
  captured: string;
}

/** One request of a case: the body and headers to send. */
export interface CaseRequest {
  body: string;
  headers: Record<string, string>;
}

/** How old the signature of the stale-timestamp case is: past the usual 5 minute tolerance. */
const STALE_BY_SECONDS = 10 * 60;

function eventIdOf(body: string): string {
  return String((JSON.parse(body) as { id?: unknown }).id);
}

/** A correctly signed delivery of `body`, signed now (each call signs afresh). */
function signed(body: string, secret: string, t = wallClockSeconds()): CaseRequest {
  return { body, headers: deliveryHeaders(body, secret, eventIdOf(body), t) };
}

/** The same event with its amount changed: what an attacker who cannot sign would send. */
function tampered(body: string): string {
  const event = JSON.parse(body) as { data: { amount: number } };
  event.data.amount = event.data.amount * 100 + 1;
  return JSON.stringify(event);
}

function withSignature(request: CaseRequest, signature: string | undefined): CaseRequest {
  const { "Service-Signature": _, ...headers } = request.headers;
  return { body: request.body, headers: signature === undefined ? headers : { ...headers, "Service-Signature": signature } };
}

/**
 * The requests of a case, each made when it is about to go out (so that every one is freshly
 * signed, a duplicate's second included).
 */
export function caseRequests(name: ReceiverCase, events: IntentEvents, secret: string): (() => CaseRequest)[] {
  const { captured, authorized } = events;
  switch (name) {
    case "valid":
      return [() => signed(captured, secret)];
    case "duplicate":
      return [() => signed(captured, secret), () => signed(captured, secret)];
    case "out-of-order":
      return [() => signed(captured, secret), () => signed(authorized, secret)];
    case "tampered-body":
      return [() => ({ ...signed(captured, secret), body: tampered(captured) })];
    case "wrong-secret":
      return [() => signed(captured, `whsec_${randomBytes(24).toString("hex")}`)];
    case "stale-timestamp":
      return [() => signed(captured, secret, wallClockSeconds() - STALE_BY_SECONDS)];
    case "missing-signature":
      return [() => withSignature(signed(captured, secret), undefined)];
    case "malformed-signature":
      return [() => withSignature(signed(captured, secret), "v1=zz")];
  }
}

/** One graded case. */
export interface CaseResult extends Grade {
  case: ReceiverCase;
  sent: string;
  expected: string;
  /** Each request's answer, in the order sent. */
  answers: Answer[];
}

export interface ReceiverCheckOptions {
  url: string;
  secret: string;
  timeoutMs: number;
  /** The cases to run, in order, each with the events of its own payment intent. */
  cases: readonly { name: ReceiverCase; events: IntentEvents }[];
  /** What the timeouts run on and the answers' durations are measured by (Node's by default). */
  timers?: Timers;
}

/**
 * Runs the cases one request at a time. Resolves with every case graded, or with `unreachable`
 * (why) when the very first answers show nothing listens at the URL: then no case is graded.
 * Once the receiver turns unreachable later (no connection within the limit, refused), nothing
 * more is sent: the case it happened in is graded on it, and the cases after it are "not run".
 * A host that drops packets so costs one timeout, not one per request.
 */
export async function runReceiverCheck(options: ReceiverCheckOptions): Promise<{ results: CaseResult[] } | { unreachable: string }> {
  const timers = options.timers ?? realTimers;
  const client = createWebhookClient(timers);
  const never = new AbortController().signal;
  const results: CaseResult[] = [];
  let answered = false;
  let stoppedBy: string | undefined;
  try {
    for (const { name, events } of options.cases) {
      const spec = CASE_SPECS[name];
      if (stoppedBy !== undefined) {
        const reason = `not sent: the receiver was unreachable (${stoppedBy}), so paysim stopped sending to it`;
        results.push({ case: name, sent: spec.sent, expected: spec.expected, answers: [], verdict: "not run", got: "—", durationMs: 0, reason });
        continue;
      }
      const answers: Answer[] = [];
      for (const make of caseRequests(name, events, options.secret)) {
        const { body, headers } = make();
        const started = timers.now();
        const { statusCode, error } = await client.post(options.url, body, headers, options.timeoutMs, never);
        const unreachable = isUnreachable(error);
        if (!answered && unreachable) return { unreachable: error! };
        answered = true;
        answers.push({ statusCode, error, durationMs: Math.round(timers.now() - started) });
        if (unreachable) {
          stoppedBy = error!;
          break;
        }
      }
      results.push({ case: name, sent: spec.sent, expected: spec.expected, answers, ...gradeReceiverCase(name, answers, options.timeoutMs) });
    }
    return { results };
  } finally {
    client.close();
  }
}

import type { AttemptResult, RequestFault, SandboxReset } from "../bus.js";
import { RESET_COUNTED } from "../domain/resources.js";
import { MAX_ATTEMPTS } from "../domain/retry-schedule.js";
import type { DeliveryState } from "./delivery-state.js";

/**
 * The words paysim uses for a delivery's progress, in the two forms it shows them: the live
 * view's (`deliveryStateText`, counting down on the clock) and the log line's (`deliveryLogText`,
 * with the retry's time written out). Both word the same reading of an attempt
 * (`deliveryStateOf`) with the same phrases (`retryLabel`, `gaveUpAfter`, `lastOutcome`).
 */

/**
 * What a sandbox reset deleted, for the live view and the log lines.
 *
 * @example
 * resetText({ companyId: null, deleted: { payment_intents: 3, payouts: 1, events: 5 } })
 * // "sandbox reset (every company): 3 payment intents, 1 payout, 5 events deleted"
 */
export function resetText(reset: SandboxReset): string {
  const count = (n: number, one: string) => `${n} ${one}${n === 1 ? "" : "s"}`;
  const whose = reset.companyId === null ? "every company" : `company ${reset.companyId}`;
  return `sandbox reset (${whose}): ${RESET_COUNTED.map(({ collection, noun }) => count(reset.deleted[collection], noun)).join(", ")} deleted`;
}

/** Retries after the first attempt (6). */
export const MAX_RETRIES = MAX_ATTEMPTS - 1;

/**
 * Time left until a retry, counted down in whole seconds (rounded up, so it
 * reads 00:01 until the moment it is due).
 *
 * @example
 * countdown(119_000)    // "01:59"
 * countdown(3_600_000)  // "1:00:00"
 */
export function countdown(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  const mmss = `${String(minutes).padStart(2, "0")}:${String(seconds).padStart(2, "0")}`;
  return hours > 0 ? `${hours}:${mmss}` : mmss;
}

/**
 * The retry that comes after `attemptsMade` attempts.
 *
 * @example
 * retryLabel(1) // "retry 1/6"
 */
export function retryLabel(attemptsMade: number): string {
  return `retry ${attemptsMade}/${MAX_RETRIES}`;
}

/** The answer in a word: the status code, or the network failure. */
export function lastOutcome(result: Pick<AttemptResult, "statusCode" | "error">): string {
  return result.statusCode !== null ? String(result.statusCode) : (result.error ?? "no answer");
}

/**
 * How an attempt that webhook chaos made is marked (docs/webhooks.md); nothing for a normal one.
 *
 * @example
 * chaosNote({ chaos: "duplicate" }) // " (chaos: duplicate)"
 */
export function chaosNote(result: Pick<AttemptResult, "chaos">): string {
  return result.chaos ? ` (chaos: ${result.chaos})` : "";
}

/**
 * @example
 * attemptText({ statusCode: 500, error: null, durationMs: 12.4 }) // "500 12ms"
 * attemptText({ statusCode: 200, error: null, durationMs: 3, chaos: "duplicate" }) // "200 3ms (chaos: duplicate)"
 */
export function attemptText(result: AttemptResult): string {
  return `${lastOutcome(result)} ${Math.round(result.durationMs)}ms${chaosNote(result)}`;
}

/**
 * @example
 * gaveUpAfter(7) // "gave up after 7 attempts"
 */
export function gaveUpAfter(attempts: number): string {
  return `gave up after ${attempts} attempts`;
}

/**
 * @example
 * gaveUpText(7, { statusCode: 500, error: null }) // "gave up after 7 attempts (last 500)"
 */
export function gaveUpText(attempts: number, last: Pick<AttemptResult, "statusCode" | "error">): string {
  return `${gaveUpAfter(attempts)} (last ${lastOutcome(last)})`;
}

/** A delivery whose endpoint was deleted before it finished. */
export function stoppedText(attempts: number, last: Pick<AttemptResult, "statusCode" | "error"> | null): string {
  if (attempts === 0) return "stopped: endpoint deleted";
  const plural = attempts === 1 ? "attempt" : "attempts";
  return `stopped: endpoint deleted after ${attempts} ${plural}${last ? ` (last ${lastOutcome(last)})` : ""}`;
}

/** HH:MM:SS (UTC, like every time paysim shows) of an epoch-ms or ISO time. */
export function timeOfDay(time: number | string): string {
  return new Date(time).toISOString().slice(11, 19);
}

/** How an HTTP status reads: done (2xx, 3xx), the client's to fix (4xx), or failed (5xx, or no answer). */
export type StatusTone = "good" | "warn" | "bad";

/**
 * @example
 * statusTone(201)  // "good"
 * statusTone(409)  // "warn"
 * statusTone(null) // "bad"
 */
export function statusTone(status: number | null): StatusTone {
  if (status !== null && status >= 200 && status < 400) return "good";
  if (status !== null && status >= 400 && status < 500) return "warn";
  return "bad";
}

/**
 * A request's status as shown: "—" when a fault left it without one (a `timeout`).
 *
 * @example
 * requestStatus(201) // "201"
 * requestStatus(0)   // "—"
 */
export function requestStatus(status: number): string {
  return status === 0 ? "—" : String(status);
}

/**
 * How the log line and the live view mark a request a fault rule hit (docs/faults.md).
 *
 * @example
 * faultMark({ ruleId: "flt_1", fault: "lost_response", unanswered: true }) // "fault lost_response flt_1, no answer sent"
 */
export function faultMark(fault: RequestFault): string {
  return `fault ${fault.fault} ${fault.ruleId}${fault.unanswered ? ", no answer sent" : ""}`;
}

/** A request's duration as the log has always printed it. */
export function requestDuration(durationMs: number): string {
  return `${durationMs.toFixed(1)}ms`;
}

/**
 * Where a delivery stands at clock time `now`, in the live view's words.
 *
 * @example
 * deliveryStateText({ kind: "failing", attempts: 2, last: { statusCode: 500, error: null, durationMs: 9 }, nextAttemptMs: t + 119_000 }, t)
 * // "500, retry 2/6 in 01:59"
 */
export function deliveryStateText(state: DeliveryState, now: number): string {
  switch (state.kind) {
    case "sending":
      return "sending…";
    case "delivered":
      return `delivered ${lastOutcome(state.last)} in ${Math.round(state.last.durationMs)}ms${chaosNote(state.last)}`;
    case "failing": {
      const retry = `${lastOutcome(state.last)}${chaosNote(state.last)}, ${retryLabel(state.attempts)}`;
      if (state.nextAttemptMs === null) return `${retry} scheduled`;
      const left = state.nextAttemptMs - now;
      return left > 0 ? `${retry} in ${countdown(left)}` : `${retry} due now`;
    }
    case "gave_up":
      return gaveUpText(state.attempts, state.last);
    case "stopped":
      return stoppedText(state.attempts, state.last);
  }
}

/**
 * How a log line ends for where a delivery stands after an attempt, and the tone to paint
 * it in (none for a stop the user caused). Times are written out: a log is read later.
 *
 * @example
 * deliveryLogText({ kind: "failing", attempts: 1, last, nextAttemptMs: Date.parse("2026-05-01T12:00:30Z") })
 * // { text: "retry 1/6 at 2026-05-01T12:00:30.000Z", tone: "warn" }
 */
export function deliveryLogText(state: Exclude<DeliveryState, { kind: "sending" }>): { text: string; tone?: StatusTone } {
  switch (state.kind) {
    case "delivered":
      return { text: "delivered", tone: "good" };
    case "gave_up":
      return { text: gaveUpAfter(state.attempts), tone: "bad" };
    case "stopped":
      return { text: `stopped after ${state.attempts} attempts (endpoint deleted)` };
    case "failing":
      return {
        text: `${retryLabel(state.attempts)} ${state.nextAttemptMs === null ? "scheduled" : `at ${new Date(state.nextAttemptMs).toISOString()}`}`,
        tone: "warn",
      };
  }
}

import type { AttemptResult, Bus, DeliveryAttempted } from "../bus.js";
import type { ChaosMark } from "../domain/chaos.js";
import { maskText } from "../domain/masking.js";
import type { Clock } from "../runtime/clock.js";
import type { Job, Scheduler } from "../runtime/scheduler.js";
import type { Store } from "../store/index.js";
import type { DeliveryForAttempt, DeliveryRow } from "../resources/deliveries/store.js";
import type { Work } from "../services/unit-of-work.js";
import { createWebhookChaos } from "./chaos.js";
import { DELIVERY_JOB, type DeliveryJobPayload } from "./delivery-job.js";
import { createFirstAttempts } from "./first-attempts.js";
import { nextAttemptAt } from "../domain/retry-schedule.js";
import { createWebhookClient, type WebhookClient } from "./http-client.js";
import { realTimers, type Timers } from "../runtime/timers.js";
import { deliveryHeaders } from "./delivery-headers.js";

export const DEFAULT_WEBHOOK_TIMEOUT_MS = 20_000;
/**
 * Attempts in flight to one endpoint at once (and connections to it). Slots are
 * shared round-robin between endpoints, and an endpoint with none running always
 * gets one, so a dead endpoint cannot hold the others back. An attempt frees its
 * slot when the whole answer has arrived, or it timed out. Not 64: it shortened
 * the webhook benchmark's p50 a little, but a burst of that many
 * new connections (a receiver that resets them) queued at a receiver for most
 * of a short timeout, and answers it gave in time were recorded as timeouts
 * (test/reliability/flapping-receiver).
 */
export const PER_ENDPOINT_IN_FLIGHT = 32;

/** An attempt about to go out: what it sends, where, and its "before" record. */
interface Started extends DeliveryForAttempt {
  attemptSeq: number;
  attemptedMs: number;
}

/** How an attempt ended, with what the receiver answered (masked), as stored. */
interface Outcome extends Omit<AttemptResult, "chaos"> {
  /** The first KiB of the answer, masked; null without an answer. */
  responseBody: string | null;
  /** The `Service-Signature` header the attempt carried, kept so the dashboard shows what was sent. */
  signature: string;
}

/** The chaos that makes this job's attempt, if any. */
const markOf = (job: Job): ChaosMark | null => (job.payload as DeliveryJobPayload).chaos ?? null;

/** POSTs the exact stored bytes, signed at the real time of this attempt (the signature is kept, to be shown again). */
async function send(
  client: WebhookClient,
  timers: Timers,
  url: string,
  body: string,
  secret: string,
  eventId: string,
  timeoutMs: number,
  stop: AbortSignal,
): Promise<Outcome> {
  const started = timers.now();
  const headers = deliveryHeaders(body, secret, eventId);
  // Rejects only when paysim is stopping: the job then stays for the next start.
  const { statusCode, error, responseHead } = await client.post(url, body, headers, timeoutMs, stop);
  // Cut at 1 KiB, a character may be split: the decoder writes U+FFFD for its part, never fails.
  const responseBody = statusCode === null ? null : maskText(responseHead.toString("utf8"));
  return { statusCode, error, durationMs: Math.round(timers.now() - started), responseBody, signature: headers["Service-Signature"]! };
}

/**
 * Makes the delivery attempts the outbox schedules. Each attempt is recorded
 * before it goes out and completed after; a failure schedules the next retry
 * from this attempt's time, the seventh gives up.
 */
export function createDispatcher(options: { store: Store; clock: Clock; scheduler: Scheduler<Work>; bus: Bus; timeoutMs?: number; timers?: Timers }) {
  const { store, clock, scheduler, bus, timers = realTimers } = options;
  const timeoutMs = options.timeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS;
  const client = createWebhookClient(timers);
  const firstAttempts = createFirstAttempts({ store, clock, scheduler });
  const chaos = createWebhookChaos({ store, clock, scheduler });

  /**
   * What this job's attempt sends, or undefined when there is nothing left to deliver: a pending
   * delivery, or for a duplicate, a succeeded one whose endpoint still exists.
   */
  function target(job: Job): DeliveryForAttempt | undefined {
    const found = store.deliveries.forAttempt(job.subjectId);
    if (markOf(job) === "duplicate") return found?.delivery.status === "succeeded" && !found.endpointDeleted ? found : undefined;
    return found?.delivery.status === "pending" ? found : undefined;
  }

  /**
   * The attempt to make, its "before" record durable. A first attempt's was
   * written with the delivery (first-attempts.ts), and the scheduler starts the job
   * only once that has committed: it goes out at once. Any other (a retry, or a
   * first attempt that a restart marked interrupted) is recorded now, in this
   * turn's group commit, and goes out once that is durable.
   */
  async function begin(job: Job): Promise<Started | { unsent: number } | undefined> {
    const ahead = firstAttempts.recordedAhead(job);
    if (ahead !== undefined) {
      const found = target(job);
      return found ? { ...found, attemptSeq: ahead, attemptedMs: clock.now() } : { unsent: ahead };
    }
    const { result, committed } = store.unit(() => {
      const found = target(job);
      if (!found) return undefined;
      const attemptedMs = clock.now();
      const attemptSeq = store.deliveryAttempts.start(found.delivery.id, new Date(attemptedMs).toISOString(), markOf(job));
      return { ...found, attemptSeq, attemptedMs };
    });
    await committed;
    return result;
  }

  async function attempt(job: Job, stop: AbortSignal): Promise<((work: Work) => void) | void> {
    const started = await begin(job);
    if (!started) return; // nothing left to deliver: the job is simply removed
    // The delivery stopped (its endpoint deleted) before this first attempt went out: it never happened.
    if ("unsent" in started) return firstAttempts.discardUnsent(started.unsent, job.subjectId);
    const { delivery, body, eventType, eventRequestId, secret, attemptSeq, attemptedMs } = started;
    const mark = markOf(job);
    const { responseBody, signature, ...outcome } = await send(client, timers, delivery.url, body, secret, delivery.event_id, timeoutMs, stop);

    return (work) => {
      const current = store.deliveries.byId(delivery.id);
      // A sandbox reset deleted the delivery while this attempt was in flight: its outcome is dropped.
      // (Checked first: a reset lets attempt seqs be reused, so this attempt's seq may name another's row.)
      if (!current) return;
      store.deliveryAttempts.finish({
        seq: attemptSeq,
        attempted_at: new Date(attemptedMs).toISOString(),
        status_code: outcome.statusCode,
        error: outcome.error,
        duration_ms: outcome.durationMs,
        response_body: responseBody,
        service_signature: signature,
      });
      const announce = (now: DeliveryRow) => {
        const attempted: DeliveryAttempted = {
          deliveryId: now.id,
          eventId: now.event_id,
          eventType,
          eventRequestId,
          endpointId: now.endpoint_id,
          companyId: now.company_id,
          url: now.url,
          status: now.status,
          attempts: now.attempt_count,
          nextAttemptMs: now.next_attempt_ms,
          attempt: { ...outcome, chaos: mark },
        };
        work.afterCommit(() => bus.emit("delivery.attempted", attempted));
      };
      // A duplicate is only recorded: the delivery had succeeded, and stays as it is.
      if (mark === "duplicate") return announce(current);
      const attemptCount = current.attempt_count + 1;
      const succeeded = outcome.statusCode !== null && outcome.statusCode >= 200 && outcome.statusCode < 300;
      let next: number | undefined;
      let status = current.status;
      // A 2xx means the receiver got the event, even if its endpoint was deleted while the attempt was in flight.
      if (succeeded) status = "succeeded";
      else if (current.status === "pending") {
        next = nextAttemptAt(attemptCount, attemptedMs);
        status = next === undefined ? "failed" : "pending";
      }
      const updated: DeliveryRow = { ...current, status, attempt_count: attemptCount, next_attempt_ms: next ?? null, updated_at: clock.nowIso() };
      store.deliveries.update(updated);
      if (next !== undefined) {
        scheduler.schedule({
          kind: DELIVERY_JOB,
          subjectId: delivery.id,
          dueMs: next,
          payload: { endpoint_id: delivery.endpoint_id } satisfies DeliveryJobPayload,
        });
      }
      chaos.afterAttempt(started, current, succeeded && current.status === "pending");
      announce(updated);
    };
  }

  scheduler.register(DELIVERY_JOB, {
    async: attempt,
    limit: { key: (job) => (job.payload as DeliveryJobPayload).endpoint_id, max: PER_ENDPOINT_IN_FLIGHT },
  });

  return {
    /** Closes the pooled connections to receivers (after the scheduler has stopped). */
    close: () => client.close(),
    /** What the webhook client holds for receivers now (see its `retained`). */
    retained: () => client.retained(),
    /** At start-up: attempts cut off mid-flight are marked, and their deliveries sent again (see first-attempts.ts). */
    recover: () => firstAttempts.recover(),
  };
}

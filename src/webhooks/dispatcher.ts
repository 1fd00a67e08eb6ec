import type { Bus } from "../bus.js";
import type { Clock } from "../runtime/clock.js";
import type { Job, Scheduler } from "../runtime/scheduler.js";
import type { Store } from "../store/index.js";
import type { DeliveryRow } from "../store/repos/deliveries.js";
import type { Work } from "../services/unit-of-work.js";
import { VERSION } from "../version.js";
import { DELIVERY_JOB, type DeliveryJobPayload } from "./outbox.js";
import { MAX_ATTEMPTS, nextAttemptAt } from "./retry-schedule.js";
import { signatureHeader, wallClockSeconds } from "./sign.js";

export const DEFAULT_WEBHOOK_TIMEOUT_MS = 20_000;
/**
 * Attempts in flight to one endpoint at once. Slots are shared round-robin
 * between endpoints, and an endpoint with none running always gets one, so
 * a dead endpoint cannot hold the others back.
 */
const PER_ENDPOINT_IN_FLIGHT = 32;

export interface AttemptOutcome {
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

/** A delivery after an attempt, as the live view and the log show it. */
export interface DeliveryUpdate {
  delivery: DeliveryRow;
  eventType: string;
  attempt: AttemptOutcome;
}

/** Why a request got no HTTP answer, in words a developer can act on. */
function describeFailure(error: unknown, timeoutMs: number): string {
  const err = error as { name?: string; cause?: { code?: string; message?: string } };
  if (err?.name === "TimeoutError") return `timeout: no response within ${timeoutMs} ms`;
  const code = err?.cause?.code;
  if (err?.cause?.message === "bad port") return "port blocked: fetch refuses to connect to this port (use another one)";
  if (code === "ECONNREFUSED") return "connection refused";
  if (code === "ECONNRESET" || code === "UND_ERR_SOCKET") return "connection reset";
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return "host not found";
  return code ? `network error (${code})` : "network error";
}

/** POSTs the exact stored bytes, signed at the real time of this attempt. */
async function send(url: string, body: string, secret: string, eventId: string, timeoutMs: number, stop: AbortSignal): Promise<AttemptOutcome> {
  const started = performance.now();
  // Not AbortSignal.timeout(): held only weakly by AbortSignal.any(), it can be
  // garbage-collected before it fires (Node 20), leaving a hung receiver's attempt
  // waiting forever. This timer holds its controller until it is cleared.
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(new DOMException(`no response within ${timeoutMs} ms`, "TimeoutError")), timeoutMs);
  try {
    const response = await fetch(url, {
      method: "POST",
      body,
      redirect: "manual",
      signal: AbortSignal.any([stop, timeout.signal]),
      headers: {
        "Content-Type": "application/json",
        "Service-Signature": signatureHeader(secret, body, wallClockSeconds()),
        "Service-Event-Id": eventId,
        "User-Agent": `paysim/${VERSION}`,
      },
    });
    // The answer counts once its status arrives; its body is not read.
    await response.body?.cancel();
    return { statusCode: response.status, error: null, durationMs: Math.round(performance.now() - started) };
  } catch (error) {
    if (stop.aborted) throw error; // paysim is stopping: the job stays for the next start
    return { statusCode: null, error: describeFailure(error, timeoutMs), durationMs: Math.round(performance.now() - started) };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Makes the delivery attempts the outbox schedules. Each attempt is recorded
 * before it goes out and completed after; a failure schedules the next retry
 * from this attempt's time, the seventh gives up.
 */
export function createDispatcher(options: { store: Store; clock: Clock; scheduler: Scheduler; bus: Bus; timeoutMs?: number }) {
  const { store, clock, scheduler, bus } = options;
  const timeoutMs = options.timeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS;

  async function attempt(job: Job, stop: AbortSignal): Promise<((work: Work) => void) | void> {
    // The "before" record joins the group commit of everything else written in
    // this turn; the request goes out once it is durable.
    const { result: started, committed } = store.unit(() => {
      const delivery = store.deliveries.byId(job.subjectId);
      if (!delivery || delivery.status !== "pending") return undefined;
      const body = store.events.bodyForDelivery(delivery.event_id);
      const endpoint = store.webhookEndpoints.byIdForDelivery(delivery.endpoint_id);
      if (body === undefined || !endpoint) return undefined;
      const attemptedMs = clock.now();
      const row = store.deliveryAttempts.start(delivery.id, new Date(attemptedMs).toISOString());
      return { delivery, body, secret: endpoint.secret, attemptedMs, attemptSeq: row.seq };
    });
    await committed;
    if (!started) return; // nothing left to deliver: the job is simply removed
    const { delivery, body, secret, attemptedMs, attemptSeq } = started;
    const eventType = (JSON.parse(body) as { type: string }).type;
    const outcome = await send(delivery.url, body, secret, delivery.event_id, timeoutMs, stop);

    return (work) => {
      store.deliveryAttempts.finish({ seq: attemptSeq, status_code: outcome.statusCode, error: outcome.error, duration_ms: outcome.durationMs });
      const current = store.deliveries.byId(delivery.id)!;
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
      const updated = store.deliveries.update({
        id: delivery.id,
        status,
        attempt_count: attemptCount,
        next_attempt_ms: next ?? null,
        updated_at: clock.nowIso(),
      });
      if (next !== undefined) {
        scheduler.schedule({ kind: DELIVERY_JOB, subjectId: delivery.id, dueMs: next, payload: { endpoint_id: delivery.endpoint_id } satisfies DeliveryJobPayload });
      }
      work.afterCommit(() => bus.emit("delivery.updated", { delivery: updated, eventType, attempt: outcome }));
    };
  }

  scheduler.register(DELIVERY_JOB, {
    async: attempt,
    limit: { key: (job) => (job.payload as DeliveryJobPayload).endpoint_id, max: PER_ENDPOINT_IN_FLIGHT },
  });

  return {
    /** After a crash: attempts cut off mid-flight are marked, and their jobs (still there) send again. */
    recover(): number {
      return store.deliveryAttempts.markInterrupted("interrupted: paysim stopped during this attempt; it is sent again");
    },
  };
}

export { MAX_ATTEMPTS };

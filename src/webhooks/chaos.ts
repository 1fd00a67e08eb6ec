import { firstAttemptMark, planChaos, REORDER_HOLD_MAX_MS, type ChaosMark } from "../domain/chaos.js";
import type { Clock } from "../runtime/clock.js";
import type { Scheduler } from "../runtime/scheduler.js";
import type { Work } from "../services/unit-of-work.js";
import { chaosOf } from "../resources/webhook-endpoints/service.js";
import type { Store } from "../store/index.js";
import type { DeliveryForAttempt, DeliveryRow } from "../resources/deliveries/store.js";
import { DELIVERY_JOB, type DeliveryJobPayload } from "./delivery-job.js";

/**
 * Webhook chaos (docs/webhooks.md) as scheduled jobs: a delayed or held first attempt, and a duplicate,
 * are each a job row due at a clock time, so they survive a crash like any retry, and chaos only
 * ever adds attempts or moves a first one later; the retry schedule after it is the normal one.
 *
 * A held first attempt ("reordered") is due REORDER_HOLD_MAX_MS after it would have gone out, and
 * is released (made due now) as soon as a later delivery to the same endpoint has been sent: its
 * first attempt ended, whatever the answer. A duplicate is one more attempt of a succeeded
 * delivery, 1–10 s of clock time after the success; it changes nothing about the delivery, and
 * one that fails is only recorded, never retried.
 */
export function createWebhookChaos({ store, clock, scheduler }: { store: Store; clock: Clock; scheduler: Scheduler<Work> }) {
  const job = (delivery: Pick<DeliveryRow, "id" | "endpoint_id">, dueMs: number, chaos: ChaosMark) =>
    scheduler.schedule({
      kind: DELIVERY_JOB,
      subjectId: delivery.id,
      dueMs,
      payload: { endpoint_id: delivery.endpoint_id, chaos } satisfies DeliveryJobPayload,
    });

  /** Holds back every delivery to this endpoint made before this one whose first attempt chaos holds: they go now. */
  function releaseHeldBefore(delivery: DeliveryRow): void {
    const now = clock.now();
    for (const heldId of store.deliveries.heldBefore(delivery.company_id, delivery.endpoint_id, delivery.seq, DELIVERY_JOB)) {
      // One already running (its hold just ran out) goes on as it is.
      if (scheduler.cancel(heldId, DELIVERY_JOB).length === 0) continue;
      const held = store.deliveries.byId(heldId)!;
      store.deliveries.update({ ...held, next_attempt_ms: now, updated_at: new Date(now).toISOString() });
      job(held, now, "reordered");
    }
  }

  return {
    /**
     * Inside the transaction that creates the delivery: when chaos delays or holds its first
     * attempt, schedules that attempt and answers its due time; undefined when it goes out at once.
     */
    scheduleFirstAttempt(delivery: Pick<DeliveryRow, "id" | "endpoint_id">, eventId: string, endpointChaos: string | null, nowMs: number): number | undefined {
      const plan = planChaos(chaosOf({ chaos: endpointChaos }), eventId);
      const mark = firstAttemptMark(plan);
      if (mark === null) return undefined;
      const dueMs = nowMs + plan.delayMs + (plan.held ? REORDER_HOLD_MAX_MS : 0);
      job(delivery, dueMs, mark);
      return dueMs;
    },

    /**
     * In the unit that records an attempt's outcome (not a duplicate's): a first attempt that ended
     * releases the held ones before it; a delivery that just succeeded may get its duplicate.
     */
    afterAttempt(target: DeliveryForAttempt, before: DeliveryRow, succeededNow: boolean): void {
      const chaos = chaosOf(target);
      if (!chaos) return;
      if (before.attempt_count === 0 && chaos.reorder > 0) releaseHeldBefore(before);
      const { duplicateAfterMs } = planChaos(chaos, before.event_id);
      if (succeededNow && duplicateAfterMs !== null && !target.endpointDeleted) job(before, clock.now() + duplicateAfterMs, "duplicate");
    },
  };
}

export type WebhookChaos = ReturnType<typeof createWebhookChaos>;

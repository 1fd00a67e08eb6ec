import type { Clock } from "../runtime/clock.js";
import type { Job, Scheduler } from "../runtime/scheduler.js";
import type { Work } from "../services/unit-of-work.js";
import type { Store } from "../store/index.js";
import { DELIVERY_JOB, type DeliveryJobPayload } from "./delivery-job.js";

/**
 * A delivery's first attempt takes a fast path. Its "before" record is written with the delivery,
 * in its event's transaction, and its job gets no row: the scheduler holds it in memory
 * (`runNow`) and starts it only once that transaction is durable, so the attempt goes out at
 * once, with no commit of its own in between. That saves a job row written and deleted, with its
 * three index entries, per delivery.
 *
 * The open record is what a restart finds: a crash (or a stop) before the attempt was sent leaves
 * it unfinished, as one cut off mid-flight, and `recover` marks it interrupted and gives its
 * delivery a job due now. A job queued in a change that then rolls back still starts, finds no
 * delivery, and does nothing.
 */
export function createFirstAttempts({ store, clock, scheduler }: { store: Store; clock: Clock; scheduler: Scheduler<Work> }) {
  return {
    /** Inside the transaction that creates the delivery: records its first attempt ahead and queues it. */
    queue(delivery: { id: string; endpoint_id: string }, createdAt: string): void {
      const first = store.deliveryAttempts.start(delivery.id, createdAt);
      const payload: DeliveryJobPayload = { endpoint_id: delivery.endpoint_id, attempt_seq: first };
      scheduler.runNow({ kind: DELIVERY_JOB, subjectId: delivery.id, payload });
    },

    /** The attempt recorded ahead for this job, if it is a first attempt's and that record is still open. */
    recordedAhead(job: Job): number | undefined {
      const ahead = (job.payload as DeliveryJobPayload).attempt_seq;
      return ahead !== undefined && store.deliveryAttempts.isOpen(ahead, job.subjectId) ? ahead : undefined;
    },

    /**
     * The delivery stopped (its endpoint deleted) before these jobs of it started: a first attempt
     * recorded ahead was never sent, so it is no attempt, and its record goes. Inside the caller's transaction.
     */
    discardUnstarted(deliveryId: string, jobs: readonly Job[]): void {
      for (const job of jobs) {
        const { attempt_seq } = job.payload as DeliveryJobPayload;
        if (attempt_seq !== undefined) store.deliveryAttempts.discardUnsent(attempt_seq, deliveryId);
      }
    },

    /** The writes of a first attempt whose delivery stopped while its job waited to start: its record goes. */
    discardUnsent: (attemptSeq: number, deliveryId: string) => (_work: Work) => store.deliveryAttempts.discardUnsent(attemptSeq, deliveryId),

    /**
     * At start-up: attempts cut off mid-flight (by a crash or a stop) are
     * marked, and their deliveries sent again. A retry's job is still there; a
     * first attempt's was kept in memory only, so it gets one.
     */
    recover(): number {
      return store.transaction(() => {
        const cutOff = store.deliveryAttempts.openDeliveries();
        const marked = store.deliveryAttempts.markInterrupted("interrupted: paysim stopped during this attempt; it is sent again");
        for (const deliveryId of cutOff) {
          const delivery = store.deliveries.byId(deliveryId);
          if (delivery?.status !== "pending" || store.jobs.forSubject(deliveryId, DELIVERY_JOB).length > 0) continue;
          const payload: DeliveryJobPayload = { endpoint_id: delivery.endpoint_id };
          scheduler.schedule({ kind: DELIVERY_JOB, subjectId: deliveryId, dueMs: clock.now(), payload });
        }
        return marked;
      });
    },
  };
}

export type FirstAttempts = ReturnType<typeof createFirstAttempts>;

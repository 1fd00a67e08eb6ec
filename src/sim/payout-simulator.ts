import * as z from "zod";
import { AUTO_MOVES, movesFrom, PAYOUT_STATUSES, type PayoutStatus, type TestDestination } from "../resources/payouts/machine.js";
import type { Scheduler } from "../runtime/scheduler.js";
import type { PayoutRow } from "../resources/payouts/store.js";
import { json, refersTo } from "../store/snapshot-checks.js";
import type { JobSnapshotRule } from "../store/snapshot-sources.js";
import type { Work } from "../services/unit-of-work.js";

export const PAYOUT_MOVE_JOB = "payout.move";

export type PayoutMode = "auto" | "manual";

interface MovePayload {
  to: PayoutStatus;
}

/** What a payout move's payload may hold, for a snapshot's jobs. */
export const payoutMovePayloadSchema: z.ZodType<MovePayload> = z.lazy(() => z.strictObject({ to: z.enum(PAYOUT_STATUSES) }));

/** What a snapshot's payout move may hold: a move of a payout of the snapshot, to a status. */
export const PAYOUT_MOVE_SNAPSHOT: JobSnapshotRule = { subject: refersTo("payouts"), payload: json(payoutMovePayloadSchema) };

/**
 * Makes the planned moves when they fall due: `move` makes one automatic move if it still
 * applies (the payout may have moved meanwhile). Register before the scheduler starts.
 */
export function registerPayoutMoves(scheduler: Scheduler<Work>, move: (work: Work, payoutId: string, to: PayoutStatus) => void): void {
  scheduler.register(PAYOUT_MOVE_JOB, {
    sync: (job, work) => move(work, job.subjectId, (job.payload as MovePayload).to),
  });
}

/**
 * `--payouts auto`: plans each payout's moves by its token's outcome at fixed
 * clock offsets from created_at (docs/api.md), on the persisted scheduler, so they
 * survive restarts and are reached at once by a clock advance (`registerPayoutMoves` makes them).
 */
export function createPayoutSimulator(options: { scheduler: Scheduler<Work>; mode: PayoutMode; destinations: readonly TestDestination[] }) {
  const { scheduler, mode, destinations } = options;

  return {
    mode,

    /** Schedules a new payout's automatic moves (in the creating transaction). */
    plan(payout: PayoutRow): void {
      if (mode !== "auto") return;
      const destination = destinations.find((d) => d.token === payout.destination_token);
      if (!destination) return;
      const created = Date.parse(payout.created_at);
      for (const step of AUTO_MOVES[destination.outcome]) {
        scheduler.schedule({ kind: PAYOUT_MOVE_JOB, subjectId: payout.id, dueMs: created + step.afterMs, payload: { to: step.to } satisfies MovePayload });
      }
    },

    /**
     * After a manual move, drops the automatic moves that no longer apply: the
     * next one must be drawn from the new status (processing → succeeded stays).
     */
    cancelObsolete(payout: PayoutRow): void {
      const allowed = new Set(movesFrom(payout.status as PayoutStatus));
      scheduler.cancel(payout.id, PAYOUT_MOVE_JOB, (job) => allowed.has((job.payload as MovePayload).to));
    },
  };
}

export type PayoutSimulator = ReturnType<typeof createPayoutSimulator>;

import { setMaxListeners } from "node:events";
import type { Ids } from "../domain/ids.js";
import type { Store } from "../store/index.js";
import type { JobRow } from "../store/repos/jobs.js";
import type { Clock } from "./clock.js";
import { createCommitGate } from "./commit-gate.js";
import { createDueTimer } from "./due-timer.js";
import { createFairQueues, type Slot } from "./fair-queues.js";
import {
  jobFromRow,
  rowFromJob,
  type AsyncJobHandler,
  type ConcurrencyLimit,
  type Job,
  type NewJob,
  type SyncJobHandler,
  type TrackedJob,
  type TransactionPort,
} from "./job.js";
import { createJobCursor } from "./job-cursor.js";
import { createSyncJobs } from "./sync-jobs.js";
import type { Timers } from "./timers.js";

export type { AsyncJobHandler, ConcurrencyLimit, Job, NewJob, SyncJobHandler, TransactionPort } from "./job.js";

export interface SchedulerOptions<W> {
  store: Store;
  clock: Clock;
  run: TransactionPort<W>;
  /** Makes the request ids the jobs' changes run under. */
  ids: Ids;
  /**
   * Async jobs running at once, beyond which only a key with none running may
   * start one, up to twice this in all; the rest wait their turn.
   */
  maxInFlight?: number;
  onError: (job: JobRow, error: unknown) => void;
  /** The real-time timer that fires the next due job (Node's by default). */
  timers?: Timers;
}

/** Due async jobs read from the table at once. */
const BATCH = 500;
/** Due async jobs held in memory at most; more are loaded as these start. */
const MAX_QUEUED = 20_000;
/** A job whose handler threw is tried again this much later (clock time), not in a loop. */
const RETRY_FAILED_JOB_MS = 60_000;

interface AsyncKind<W> {
  handler: AsyncJobHandler<W>;
  limit?: ConcurrencyLimit | undefined;
}

/**
 * Jobs persisted in SQLite with a due time on the paysim clock. A timer fires
 * the next one in real time (scaled); `drain()` runs everything due, earliest
 * first, so a clock advance does all due work before it answers. (`runNow`
 * queues an async job due now with no row, for a caller whose own rows let a
 * restart find it again.)
 *
 * Sync jobs run in the drain itself, inside the unit of work that removes them.
 * Due async jobs are read from the table once, through a cursor that only moves
 * forward, into fair queues (one FIFO queue per key, slots handed out
 * round-robin), so a slow key cannot starve the others and no job is
 * rescanned while it waits.
 *
 * An async job starts only once the transaction that scheduled it is durable
 * (the next group commit, when it was scheduled in one): its handler may act on
 * the outside world at once, and what it acts on can never be rolled back.
 */
export function createScheduler<W>({ store, clock, run, ids, maxInFlight = 128, onError, timers }: SchedulerOptions<W>) {
  const syncJobs = createSyncJobs({ store, run, ids, postpone, stopped: () => stopped });
  const asyncKinds = new Map<string, AsyncKind<W>>();
  const inFlight = new Map<number, Promise<void>>();
  const queued = createFairQueues(maxInFlight);
  const gate = createCommitGate(store.whenOpenGroupDurable);
  /** Every due async job it has read is queued, running or done. */
  const asyncCursor = createJobCursor(store.jobs);
  const timer = createDueTimer(clock, drain, timers);
  /** The last seq given to a job with no row (`runNow`): negative, so never a row's. */
  let lastUnsavedSeq = 0;
  const saved = (job: TrackedJob) => job.seq > 0;
  const abort = new AbortController();
  // Every running async job listens for the stop, so more than Node's default of 10 is the normal
  // case, not a leak; without this, users would see a MaxListenersExceededWarning under load.
  setMaxListeners(0, abort.signal);
  let moreDueAsync = false;
  /** The clock time the last drain covered: every job due by then has run, started or been queued. */
  let drainedUpTo = -1;
  let drainQueued = false;
  let dispatchQueued = false;
  let started = false;
  let stopped = false;

  /** A job whose handler threw: reported, and given a row due a while later (its own, if it had one). */
  function postpone(job: TrackedJob, error: unknown) {
    const row = rowFromJob(job);
    onError(row, error);
    if (stopped) return;
    store.transaction(() => {
      if (!saved(job) || store.jobs.remove(row.seq)) {
        const retry = store.jobs.insert({ ...row, due_ms: clock.now() + RETRY_FAILED_JOB_MS });
        noteFuture(retry.due_ms);
      }
    });
  }

  /** Queues due async jobs past the cursor, up to MAX_QUEUED held in memory. */
  function loadDueAsync(now: number) {
    const kinds = [...asyncKinds.keys()];
    if (kinds.length === 0) return;
    moreDueAsync = false;
    while (queued.size() < MAX_QUEUED) {
      const rows = asyncCursor.next(kinds, now, Math.min(BATCH, MAX_QUEUED - queued.size()));
      if (rows.length === 0) return;
      for (const row of rows) {
        if (inFlight.has(row.seq) || queued.holds(row.seq)) continue;
        enqueue(jobFromRow(row));
      }
    }
    moreDueAsync = true;
  }

  function enqueue(job: TrackedJob) {
    const { limit } = asyncKinds.get(job.kind)!;
    queued.push(job, limit?.key(job) ?? job.kind, limit?.max);
  }

  /** Hands free slots to queued jobs; asks for more rows once the queues run low. */
  function dispatch() {
    if (!stopped) queued.dispatch(start);
    if (moreDueAsync && queued.size() < MAX_QUEUED / 2) requestDrain();
  }

  function start(job: TrackedJob, slot: Slot) {
    const { handler } = asyncKinds.get(job.kind)!;
    const task = (async () => {
      try {
        const committed = gate.committed(job.seq);
        // Its transaction rolled back: the job never existed.
        if (committed && !(await committed)) return;
        if (stopped) return; // the row stays: the next start runs it
        const commit = await handler(job, abort.signal);
        if (stopped) return; // the row stays: the next start runs it again
        // Done with the outside world: its key's slot goes to the next job while these writes commit.
        slot.doneWaiting();
        dispatch();
        // Grouped with the other writes of this turn; until it commits the row stays, so a crash re-runs the job.
        await run.grouped(ids.newId("req"), (work) => {
          commit?.(work);
          if (saved(job)) store.jobs.remove(job.seq);
        });
      } catch (error) {
        if (!stopped) postpone(job, error);
      } finally {
        inFlight.delete(job.seq);
        slot.finished();
        if (!stopped) dispatch();
      }
    })();
    inFlight.set(job.seq, task);
  }

  /** Runs every due sync job, queues and starts due async ones, then re-arms the timer. */
  function drain(): void {
    if (!started || stopped) return;
    const now = clock.now();
    while (syncJobs.runDue(now)) {
      // a job may have made another job due (e.g. processing then succeeded): run again
    }
    loadDueAsync(now);
    dispatch();
    drainedUpTo = now;
    arm();
  }

  function requestDrain() {
    if (drainQueued || stopped) return;
    drainQueued = true;
    setImmediate(() => {
      drainQueued = false;
      drain();
    });
  }

  /** Starts queued jobs at the end of this turn: unlike a drain, it reads nothing from the table. */
  function requestDispatch() {
    if (dispatchQueued || stopped) return;
    dispatchQueued = true;
    setImmediate(() => {
      dispatchQueued = false;
      if (started) dispatch();
    });
  }

  function arm() {
    if (stopped) return;
    // Counted from what the last drain covered, not from now: a job that fell due
    // while the drain ran must fire at once, not be skipped.
    timer.arm(store.jobs.nextDueAfter(drainedUpTo));
  }

  /** A job due later than the armed time needs no timer change; an earlier one re-arms. */
  function noteFuture(dueMs: number) {
    if (dueMs < timer.armedFor()) setImmediate(() => started && !stopped && arm());
  }

  /** Persists a job; call it inside the unit of work that decides it. */
  function schedule(job: NewJob): JobRow {
    const row = store.jobs.insert({ kind: job.kind, subject_id: job.subjectId, due_ms: job.dueMs, payload: JSON.stringify(job.payload ?? null) });
    // Inside a group commit: the job may be read (same connection) before that commits; start() waits for it.
    // In a transaction of its own it is durable before any drain can run: no group is open then.
    if (asyncKinds.has(job.kind)) gate.hold(row.seq);
    if (job.dueMs <= clock.now()) requestDrain();
    else noteFuture(job.dueMs);
    return row;
  }

  return {
    register(kind: string, handler: { sync: SyncJobHandler<W> } | { async: AsyncJobHandler<W>; limit?: ConcurrencyLimit }) {
      if ("sync" in handler) syncJobs.register(kind, handler.sync);
      else asyncKinds.set(kind, { handler: handler.async, limit: handler.limit });
    },

    schedule,

    /**
     * Runs an async job now that has no row: for a caller whose own rows let a
     * restart find the job again, and that would rather not write and delete a
     * row per job. It is held in memory like a queued job; like any job it starts
     * only once the transaction that queued it is durable, and one queued in a
     * unit that then rolls back still starts, and must find nothing to do. Past
     * MAX_QUEUED jobs held in memory, it is saved as a row after all.
     */
    runNow(job: Omit<NewJob, "dueMs">): void {
      if (queued.size() >= MAX_QUEUED) {
        schedule({ ...job, dueMs: clock.now() });
        return;
      }
      const seq = --lastUnsavedSeq;
      gate.hold(seq);
      enqueue({ seq, kind: job.kind, subjectId: job.subjectId, dueMs: clock.now(), payload: job.payload ?? null });
      requestDispatch();
    },

    /**
     * Removes a subject's jobs of one kind that `keep` rejects (queued ones
     * included); answers those of them that had not started. A running one
     * finishes, and its writes still commit.
     */
    cancel(subjectId: string, kind: string, keep: (job: Job) => boolean = () => false): Job[] {
      const notStarted = queued.removeWhere((job) => !saved(job) && job.subjectId === subjectId && job.kind === kind && !keep(job));
      for (const row of store.jobs.forSubject(subjectId, kind)) {
        const job = jobFromRow(row);
        if (keep(job)) continue;
        store.jobs.remove(row.seq);
        if (!inFlight.has(row.seq)) notStarted.push(job);
        queued.remove(row.seq);
      }
      return notStarted;
    },

    /**
     * Drops the queued jobs (rowless ones included) of these subjects, whose rows a sandbox reset
     * deleted. A running one finishes, and its handler must find its subject gone.
     */
    forgetSubjects(subjects: ReadonlySet<string>): void {
      if (subjects.size > 0) queued.removeWhere((job) => subjects.has(job.subjectId));
    },

    drain,

    /** Runs what fell due while paysim was down, then follows the timer. */
    start() {
      started = true;
      drain();
    },

    /** Stops firing; running async jobs are aborted and their rows kept for the next start. */
    async stop() {
      stopped = true;
      timer.clear();
      queued.clear();
      abort.abort();
      await Promise.allSettled([...inFlight.values()]);
    },

    /** Resolves once no async job is running or waiting for a slot (tests and benchmarks). */
    async idle() {
      while (inFlight.size > 0 || queued.size() > 0 || drainQueued) {
        await Promise.allSettled([...inFlight.values()]);
        await new Promise((resolve) => setImmediate(resolve));
      }
    },

    inFlightCount: () => inFlight.size,

    /** Keys (e.g. webhook endpoints) the scheduler holds any state for: none once their jobs are done. */
    trackedKeys: () => queued.trackedKeys(),
  };
}

export type Scheduler<W> = ReturnType<typeof createScheduler<W>>;

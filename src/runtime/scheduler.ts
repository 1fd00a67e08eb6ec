import { newId } from "../domain/ids.js";
import type { RunUnit, Work } from "../services/unit-of-work.js";
import type { Store } from "../store/index.js";
import type { JobRow } from "../store/repos/jobs.js";
import type { Clock } from "./clock.js";

export interface Job<P = unknown> {
  seq: number;
  kind: string;
  subjectId: string;
  dueMs: number;
  payload: P;
}

/** A job that only touches the database: it runs inside the unit that removes it. */
export type SyncJobHandler = (job: Job, work: Work) => void;

/**
 * A job that waits on the outside world (a webhook attempt). It may not write
 * while it waits; it resolves to the writes to commit, which run in the unit
 * that removes the job. Until then the job row stays: a crash re-runs it.
 */
export type AsyncJobHandler = (job: Job, signal: AbortSignal) => Promise<((work: Work) => void) | void>;

/** At most `max` async jobs with the same key run at once (one slow webhook endpoint must not hold every slot). */
export interface ConcurrencyLimit {
  key: (job: Job) => string;
  max: number;
}

export interface NewJob {
  kind: string;
  subjectId: string;
  dueMs: number;
  payload?: unknown;
}

export interface SchedulerOptions {
  store: Store;
  clock: Clock;
  run: RunUnit;
  /** Async jobs running at once at most (plus one per concurrency key with none running); the rest wait their turn. */
  maxInFlight?: number;
  onError: (job: JobRow, error: unknown) => void;
}

const BATCH = 500;
const MAX_TIMER_MS = 2 ** 31 - 1;
/** A job whose handler threw is tried again this much later (clock time), not in a loop. */
const RETRY_FAILED_JOB_MS = 60_000;

/**
 * Jobs persisted in SQLite with a due time on the paysim clock. A timer fires
 * the next one in real time (scaled); `drain()` runs everything due, earliest
 * first, so a clock advance does all due work before it answers.
 */
export function createScheduler({ store, clock, run, maxInFlight = 64, onError }: SchedulerOptions) {
  const syncHandlers = new Map<string, SyncJobHandler>();
  const asyncHandlers = new Map<string, { handler: AsyncJobHandler; limit?: ConcurrencyLimit | undefined }>();
  const inFlight = new Map<number, Promise<void>>();
  const inFlightByKey = new Map<string, number>();
  const abort = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let armedFor = Infinity;
  /** The clock time the last drain covered: every job due by then has run or started (or waits for a slot). */
  let drainedUpTo = -Infinity;
  let drainQueued = false;
  let started = false;
  let stopped = false;

  const toJob = (row: JobRow): Job => ({
    seq: row.seq,
    kind: row.kind,
    subjectId: row.subject_id,
    dueMs: row.due_ms,
    payload: JSON.parse(row.payload) as unknown,
  });

  function postpone(row: JobRow, error: unknown) {
    onError(row, error);
    if (stopped) return;
    store.transaction(() => {
      if (store.jobs.remove(row.seq)) {
        store.jobs.insert({ kind: row.kind, subject_id: row.subject_id, due_ms: clock.now() + RETRY_FAILED_JOB_MS, payload: row.payload });
      }
    });
  }

  function runSync(row: JobRow, handler: SyncJobHandler) {
    try {
      run(newId("req"), (work) => {
        handler(toJob(row), work);
        store.jobs.remove(row.seq);
      });
    } catch (error) {
      postpone(row, error);
    }
  }

  /** Starts an async job unless its slots are full; true if it started. */
  function startAsync(row: JobRow, { handler, limit }: { handler: AsyncJobHandler; limit?: ConcurrencyLimit | undefined }): boolean {
    const job = toJob(row);
    const key = limit?.key(job);
    const running = key === undefined ? 0 : (inFlightByKey.get(key) ?? 0);
    if (key !== undefined && running >= limit!.max) return false;
    // Past the global bound, a key with nothing running still gets one slot: hung
    // endpoints filling every slot must not starve a healthy one.
    if (inFlight.size >= maxInFlight && (key === undefined || running > 0)) return false;
    if (key !== undefined) inFlightByKey.set(key, (inFlightByKey.get(key) ?? 0) + 1);
    const task = (async () => {
      try {
        const commit = await handler(job, abort.signal);
        if (stopped) return; // the row stays: the next start runs it again
        run(newId("req"), (work) => {
          commit?.(work);
          store.jobs.remove(row.seq);
        });
      } catch (error) {
        if (!stopped) postpone(row, error);
      } finally {
        inFlight.delete(row.seq);
        if (key !== undefined) inFlightByKey.set(key, inFlightByKey.get(key)! - 1);
        requestDrain();
      }
    })();
    inFlight.set(row.seq, task);
    return true;
  }

  /** One pass over every due job in (due, seq) order; true if anything ran or started. */
  function pass(now: number): boolean {
    let progressed = false;
    let cursor = { due: -Infinity, seq: -1 };
    for (;;) {
      const rows = store.jobs.dueAfter(now, cursor.due, cursor.seq, BATCH);
      if (rows.length === 0) return progressed;
      for (const row of rows) {
        cursor = { due: row.due_ms, seq: row.seq };
        if (stopped) return progressed;
        if (inFlight.has(row.seq)) continue;
        const syncHandler = syncHandlers.get(row.kind);
        if (syncHandler) {
          runSync(row, syncHandler);
          progressed = true;
          continue;
        }
        const asyncHandler = asyncHandlers.get(row.kind);
        if (asyncHandler && startAsync(row, asyncHandler)) progressed = true;
      }
    }
  }

  /** Runs every due sync job and starts due async ones (up to the in-flight bound), then re-arms the timer. */
  function drain(): void {
    if (!started || stopped) return;
    const now = clock.now();
    while (pass(now)) {
      // a job may have made another job due (e.g. processing then succeeded): pass again
    }
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

  function arm() {
    if (stopped) return;
    // Counted from what the last drain covered, not from now: a job that fell due
    // while the drain ran must fire at once, not be skipped.
    const next = store.jobs.nextDueAfter(drainedUpTo);
    if (timer) clearTimeout(timer);
    timer = undefined;
    armedFor = next ?? Infinity;
    if (next === undefined) return;
    const delay = Math.min(MAX_TIMER_MS, Math.max(0, Math.ceil((next - clock.now()) / clock.timeScale)));
    timer = setTimeout(drain, delay);
    timer.unref();
  }

  return {
    register(kind: string, handler: { sync: SyncJobHandler } | { async: AsyncJobHandler; limit?: ConcurrencyLimit }) {
      if ("sync" in handler) syncHandlers.set(kind, handler.sync);
      else asyncHandlers.set(kind, { handler: handler.async, limit: handler.limit });
    },

    /** Persists a job; call it inside the unit of work that decides it. */
    schedule(job: NewJob): JobRow {
      const row = store.jobs.insert({ kind: job.kind, subject_id: job.subjectId, due_ms: job.dueMs, payload: JSON.stringify(job.payload ?? null) });
      if (job.dueMs <= clock.now()) requestDrain();
      else if (job.dueMs < armedFor) setImmediate(() => started && !stopped && arm());
      return row;
    },

    /** Removes a subject's jobs of one kind that `keep` rejects. */
    cancel(subjectId: string, kind: string, keep: (job: Job) => boolean = () => false): void {
      for (const row of store.jobs.forSubject(subjectId, kind)) {
        if (!keep(toJob(row))) store.jobs.remove(row.seq);
      }
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
      if (timer) clearTimeout(timer);
      abort.abort();
      await Promise.allSettled([...inFlight.values()]);
    },

    /** Resolves once no async job is running (tests and benchmarks). */
    async idle() {
      while (inFlight.size > 0 || drainQueued) {
        await Promise.allSettled([...inFlight.values()]);
        await new Promise((resolve) => setImmediate(resolve));
      }
    },

    inFlightCount: () => inFlight.size,
  };
}

export type Scheduler = ReturnType<typeof createScheduler>;

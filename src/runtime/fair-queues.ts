import type { TrackedJob } from "./job.js";

/** A started job's hold on its key: give it back in two steps, as the job moves on. */
export interface Slot {
  /** The job no longer waits on the outside world: its key's limit counts it no more. Idempotent. */
  doneWaiting(): void;
  /** The job is over (its writes committed, or it failed): it counts nowhere any more. */
  finished(): void;
}

interface Queued {
  job: TrackedJob;
  key: string;
  /** Jobs of this key that may wait on the outside world at once; none when undefined. */
  max: number | undefined;
}

/**
 * Jobs waiting to start, in one FIFO queue per key (e.g. a webhook endpoint), and the admission
 * rule that hands out slots to them. Slots go round-robin across keys, so a slow key cannot
 * starve the others. At most `maxInFlight` jobs run at once, beyond which only a key with none
 * running may start one, up to twice that in all; a key's `max` bounds its jobs still waiting on
 * the outside world. Keys come and go: a key with nothing queued or running is forgotten.
 */
export function createFairQueues(maxInFlight: number) {
  const queues = new Map<string, Queued[]>();
  const queuedSeqs = new Set<number>();
  /** Jobs of each key started and not finished (a key with none has no entry). */
  const inFlightByKey = new Map<string, number>();
  /** Of those, the ones still waiting on the outside world: what a key's `max` bounds. */
  const waitingByKey = new Map<string, number>();
  let running = 0;

  const countUp = (counts: Map<string, number>, key: string) => counts.set(key, (counts.get(key) ?? 0) + 1);
  /** A count back to zero is dropped, not kept: keys must cost no memory once done. */
  const countDown = (counts: Map<string, number>, key: string) => {
    const left = counts.get(key)! - 1;
    if (left === 0) counts.delete(key);
    else counts.set(key, left);
  };

  function canStart({ key, max }: Queued): boolean {
    if (max !== undefined && (waitingByKey.get(key) ?? 0) >= max) return false;
    // Past the global bound, a key with nothing in flight still gets one slot: hung
    // endpoints filling every slot must not starve a healthy one. But not past twice
    // the bound: a delivery to thousands of endpoints must not open thousands of
    // connections at once (a receiver's accept queue overflows, and answers it gives
    // in time are recorded as timeouts); those wait their turn here, where no
    // attempt's timeout runs.
    return running < maxInFlight || ((inFlightByKey.get(key) ?? 0) === 0 && running < 2 * maxInFlight);
  }

  function take({ job, key }: Queued): Slot {
    queuedSeqs.delete(job.seq);
    running++;
    countUp(inFlightByKey, key);
    countUp(waitingByKey, key);
    let waiting = true;
    const doneWaiting = () => {
      if (!waiting) return;
      waiting = false;
      countDown(waitingByKey, key);
    };
    return {
      doneWaiting,
      finished() {
        running--;
        countDown(inFlightByKey, key);
        doneWaiting();
      },
    };
  }

  /** Drops the queued jobs `remove` selects; answers them. */
  function removeWhere(remove: (job: TrackedJob) => boolean): TrackedJob[] {
    const removed: TrackedJob[] = [];
    for (const [key, queue] of queues) {
      const left: Queued[] = [];
      for (const item of queue) {
        if (remove(item.job)) removed.push(item.job);
        else left.push(item);
      }
      if (left.length === queue.length) continue;
      if (left.length === 0) queues.delete(key);
      else queues.set(key, left);
    }
    for (const job of removed) queuedSeqs.delete(job.seq);
    return removed;
  }

  return {
    push(job: TrackedJob, key: string, max: number | undefined) {
      let queue = queues.get(key);
      if (!queue) queues.set(key, (queue = []));
      queue.push({ job, key, max });
      queuedSeqs.add(job.seq);
    },

    holds: (seq: number) => queuedSeqs.has(seq),

    /** Jobs queued, not yet started. */
    size: () => queuedSeqs.size,

    /** Jobs started and not finished. */
    running: () => running,

    /** Starts every queued job that may start now, one key at a time in turn. */
    dispatch(start: (job: TrackedJob, slot: Slot) => void) {
      let startedOne = true;
      while (startedOne) {
        startedOne = false;
        for (const [key, queue] of queues) {
          if (queue.length === 0) {
            queues.delete(key);
            continue;
          }
          if (!canStart(queue[0]!)) continue;
          const item = queue.shift()!;
          start(item.job, take(item));
          startedOne = true;
        }
      }
    },

    removeWhere,

    /** Drops queued job `seq`, if queued. */
    remove(seq: number) {
      if (queuedSeqs.has(seq)) removeWhere((job) => job.seq === seq);
    },

    /** Drops every queued job (running ones keep their slots until they finish). */
    clear() {
      queues.clear();
      queuedSeqs.clear();
    },

    /** Keys it holds any state for: none once their jobs are done. */
    trackedKeys: () => new Set([...inFlightByKey.keys(), ...waitingByKey.keys(), ...queues.keys()]).size,
  };
}

export type FairQueues = ReturnType<typeof createFairQueues>;

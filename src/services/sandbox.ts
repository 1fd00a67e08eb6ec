import type { Bus } from "../bus.js";
import type { ResetCounts } from "../domain/resources.js";
import type { Clock } from "../runtime/clock.js";
import { saveClock } from "../runtime/clock-persistence.js";
import type { Scheduler } from "../runtime/scheduler.js";
import type { Store } from "../store/index.js";
import type { Work } from "./unit-of-work.js";

export type { ResetCounts };

/** The instance's clock as the API shows it (docs/api.md). */
export interface ClockView {
  object: "clock";
  now: string;
  offset_seconds: number;
  time_scale: number;
}

/**
 * The controls a real provider does not have (docs/testing.md): the virtual clock, moved forward
 * with everything that falls due, and the reset of a company's activity. The API, the dashboard
 * and startPaysim()'s helpers all use these.
 */
export function createSandboxService({ store, clock, scheduler, bus }: { store: Store; clock: Clock; scheduler: Scheduler<Work>; bus: Bus }) {
  return {
    clock(): ClockView {
      return { object: "clock", now: clock.nowIso(), offset_seconds: clock.offsetSeconds(), time_scale: clock.timeScale };
    },

    /**
     * Moves the clock forward, keeps it, and does all work that falls due before resolving.
     * Throws the clock's ClockRangeError, unmoved, for a move past year 9999.
     */
    async advance(seconds: number): Promise<void> {
      clock.advance(seconds);
      store.transaction(() => saveClock(store, clock));
      scheduler.drain();
    },

    /**
     * Resets the sandbox: one company's activity, or every company's with null. In one
     * transaction the rows go; then the jobs of the deleted payouts and deliveries that the scheduler
     * holds in memory are dropped. An attempt in flight finds its delivery gone and records nothing.
     * Companies, keys, endpoints with their secrets, and the clock stay. The bus hears `sandbox.reset` once committed.
     */
    reset(companyId: string | null): ResetCounts {
      // Fault rules (docs/faults.md) go in the same transaction as the rest.
      const { deleted, jobSubjects } = store.transaction(() => store.sandboxReset.reset(companyId));
      scheduler.forgetSubjects(jobSubjects);
      // Listeners that remember what happened (the live view, waits) forget it here.
      bus.emit("sandbox.reset", { companyId, deleted });
      return deleted;
    },
  };
}

export type SandboxService = ReturnType<typeof createSandboxService>;

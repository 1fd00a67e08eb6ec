import type { Bus } from "../bus.js";
import type { Scheduler } from "../runtime/scheduler.js";
import type { Store } from "../store/index.js";
import type { ResetResult } from "../store/repos/sandbox-reset.js";
import type { Work } from "./unit-of-work.js";

export type ResetCounts = ResetResult["deleted"];

/**
 * Resets the sandbox (docs/testing.md): one company's activity, or every company's with null. In one
 * transaction the rows go; then the jobs of the deleted payouts and deliveries that the scheduler
 * holds in memory are dropped. An attempt in flight finds its delivery gone and records nothing.
 * Companies, keys, endpoints with their secrets, and the clock stay. The bus hears `sandbox.reset` once committed.
 */
export function createSandboxReset({ store, scheduler, bus }: { store: Store; scheduler: Scheduler<Work>; bus: Bus }) {
  return (companyId: string | null): ResetCounts => {
    // Fault rules (docs/faults.md) go in the same transaction as the rest.
    const { deleted, jobSubjects } = store.transaction(() => store.sandboxReset.reset(companyId));
    scheduler.forgetSubjects(jobSubjects);
    // Listeners that remember what happened (the live view, waits) forget it here.
    bus.emit("sandbox.reset", { companyId, deleted });
    return deleted;
  };
}

export type SandboxReset = ReturnType<typeof createSandboxReset>;

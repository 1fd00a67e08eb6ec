/**
 * Async jobs scheduled in a group commit that has not committed yet, each with that commit. Such
 * a job may be read back (same connection) before its group is durable; it must not act on the
 * outside world until then, and never if the group rolls back.
 */
export function createCommitGate(whenOpenGroupDurable: () => Promise<void> | undefined) {
  const uncommitted = new Map<number, Promise<void>>();
  return {
    /** Call where job `seq` is scheduled: it waits for the open group commit, if any. */
    hold(seq: number) {
      const committed = whenOpenGroupDurable() ?? Promise.resolve();
      uncommitted.set(seq, committed);
      const forget = () => void uncommitted.delete(seq);
      committed.then(forget, forget);
    },
    /**
     * Resolves true once the transaction that scheduled job `seq` is durable, false if it rolled
     * back (the job never existed); undefined when there is nothing to wait for.
     */
    committed(seq: number): Promise<boolean> | undefined {
      return uncommitted.get(seq)?.then(
        () => true,
        () => false,
      );
    },
  };
}

export type CommitGate = ReturnType<typeof createCommitGate>;

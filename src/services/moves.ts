import type { Bus, StateMoved } from "../bus.js";
import type { Work } from "./unit-of-work.js";

/**
 * Says on the bus which moves of the two state machines were made (once committed) or refused
 * (at once: a refused move writes nothing), for the coverage report (docs/testing.md, "Coverage").
 */
export function moveAnnouncer(bus: Bus, machine: StateMoved["machine"]) {
  return {
    /** Runs `transition`; when it throws (a move the table does not hold), says so and rethrows. */
    checked<T>(companyId: string, from: string, to: string, transition: () => T): T {
      try {
        return transition();
      } catch (error) {
        bus.emit("state.moved", { companyId, machine, from, to, refused: true });
        throw error;
      }
    },
    made(work: Work, companyId: string, from: string, to: string): void {
      work.afterCommit(() => bus.emit("state.moved", { companyId, machine, from, to, refused: false }));
    },
  };
}

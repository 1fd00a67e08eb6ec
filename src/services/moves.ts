import type { Bus, StateMoved } from "../bus.js";
import type { Work } from "./unit-of-work.js";

/**
 * Says on the bus which moves of the two state machines were made (once committed) or refused
 * (at once: a refused move writes nothing), for the coverage report (docs/testing.md, "Coverage").
 */
export function moveAnnouncer(bus: Bus, machine: StateMoved["machine"]) {
  return {
    /**
     * Makes the move from `from` to `to` that `transition` (the domain's table) allows, and says
     * so: a refused one (it throws) at once, then rethrown; a made one once `work` commits. The
     * one way a service moves a machine, so no move is made without being said.
     */
    move<T>(work: Work, companyId: string, from: string, to: string, transition: () => T): T {
      let result: T;
      try {
        result = transition();
      } catch (error) {
        bus.emit("state.moved", { companyId, machine, from, to, refused: true });
        throw error;
      }
      work.afterCommit(() => bus.emit("state.moved", { companyId, machine, from, to, refused: false }));
      return result;
    },
  };
}

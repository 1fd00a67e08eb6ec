import { UnusableDatabaseError } from "../store/errors.js";
import type { Store } from "../store/index.js";
import { ClockRangeError, parseStoredClockMs, type Clock } from "./clock.js";

/** Where the virtual clock is kept between runs: the offset from real time, and the furthest time it reached. */
const CLOCK_OFFSET = "clock_offset_ms";
const CLOCK_HIGH_WATER = "clock_high_water_ms";
/** Every meta key the clock is kept under: all that paysim writes there. */
export const STORED_CLOCK_KEYS = [CLOCK_OFFSET, CLOCK_HIGH_WATER] as const;

/** Why a stored clock reading (milliseconds as text) is out of the clock's range, in a ClockRangeError's words; undefined when it is in it. */
export function storedClockProblem(text: string): string | undefined {
  try {
    parseStoredClockMs(text);
    return undefined;
  } catch (error) {
    if (error instanceof ClockRangeError) return error.message;
    throw error;
  }
}

/** What `createClock` needs to carry on where an earlier run stopped. */
export interface StoredClock {
  offsetMs: number;
  notBeforeMs: number;
}

/**
 * The clock an earlier run left in the database's meta; a value out of range refuses the
 * database, naming the fix (it is read before the database changes, so nothing is touched).
 */
export function readStoredClock(path: string, meta: ReadonlyMap<string, string>): StoredClock {
  const read = (key: string): number => {
    try {
      return parseStoredClockMs(meta.get(key));
    } catch (error) {
      if (!(error instanceof ClockRangeError)) throw error;
      throw new UnusableDatabaseError(
        path,
        `The database ${path} cannot be used: its stored clock (${key}) ${error.message}. paysim has not changed it. ` +
          `Start with another --db, or delete ${path} to start afresh.`,
      );
    }
  };
  return { offsetMs: read(CLOCK_OFFSET), notBeforeMs: read(CLOCK_HIGH_WATER) };
}

/** Records where the clock stands, so that the next run neither jumps back nor loses an advance. Call inside a transaction. */
export function saveClock(store: Store, clock: Clock): void {
  store.meta.set(CLOCK_OFFSET, String(clock.offsetSeconds() * 1000));
  store.meta.set(CLOCK_HIGH_WATER, String(clock.now()));
}

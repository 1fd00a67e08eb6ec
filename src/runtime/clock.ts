import { isTimeScale, TIME_SCALE_RANGE } from "../domain/time-scale.js";

/**
 * The one clock of an instance (docs/api.md): real time × time scale, plus an offset
 * that `advance` increases. Every timestamp, schedule and window reads it; nothing
 * else in paysim reads the wall clock for domain time.
 */
export interface Clock {
  /** Virtual now, in epoch milliseconds. Never runs backwards, and stops at MAX_CLOCK_MS. */
  now(): number;
  /** Virtual now as ISO 8601 UTC with milliseconds and `Z`. */
  nowIso(): string;
  /** Seconds added by `advance` so far (plus any catch-up after a restart). */
  offsetSeconds(): number;
  readonly timeScale: number;
  /** Moves virtual time forward by `seconds` (an integer ≥ 1); throws ClockRangeError if that would pass MAX_CLOCK_MS. */
  advance(seconds: number): void;
}

/**
 * The last instant the clock reaches: the last millisecond of year 9999. A later date has no
 * four-digit year in ISO 8601 (and JavaScript's Date ends in year 275760), so it could be
 * neither stored nor shown; the clock stops here rather than run past it.
 */
export const MAX_CLOCK_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/**
 * Real (wall-clock) time in epoch milliseconds, for the few things that must not move with the
 * virtual clock (the dashboard's one-time links expire in real minutes). Read through here so
 * that this module stays the one reader of the wall clock.
 */
export const realTimeNow = (): number => Date.now();

/** A time scale, an advance or a stored clock value that would take dates out of range. */
export class ClockRangeError extends RangeError {
  constructor(message: string) {
    super(message);
    this.name = "ClockRangeError";
  }
}

/**
 * Reads a clock value (milliseconds) that a database kept as text; absent is 0.
 * Throws ClockRangeError, with a message completing "its stored clock (…) ", for
 * anything but a whole number from 0 to MAX_CLOCK_MS.
 *
 * @example
 * parseStoredClockMs("1767225600000") // 1767225600000
 * parseStoredClockMs("1.2e+22")       // throws: past 9999-12-31T23:59:59.999Z
 */
export function parseStoredClockMs(text: string | undefined): number {
  if (text === undefined) return 0;
  const value = text.trim() === "" ? Number.NaN : Number(text);
  if (value > MAX_CLOCK_MS) {
    throw new ClockRangeError(`is ${text} ms, past ${new Date(MAX_CLOCK_MS).toISOString()}, the latest time paysim can show`);
  }
  if (!Number.isInteger(value) || value < 0) throw new ClockRangeError(`is ${JSON.stringify(text)}, not a whole number of milliseconds from 0`);
  return value;
}

export interface ClockOptions {
  /** Real time is multiplied by this from the moment the clock is made: greater than 0, at most MAX_TIME_SCALE. Default 1. */
  timeScale?: number;
  /** Offset carried over from an earlier run, in milliseconds (0 … MAX_CLOCK_MS). */
  offsetMs?: number;
  /** The latest virtual time an earlier run reached (0 … MAX_CLOCK_MS): the clock starts no earlier. */
  notBeforeMs?: number;
  /** Source of real time; tests may pass their own. */
  realNow?: () => number;
}

/**
 * @example
 * const clock = createClock({ timeScale: 60 });
 * clock.advance(3600); // one virtual hour later, at once
 */
export function createClock(options: ClockOptions = {}): Clock {
  const timeScale = options.timeScale ?? 1;
  if (!isTimeScale(timeScale)) throw new ClockRangeError(`timeScale must be ${TIME_SCALE_RANGE}.`);
  for (const name of ["offsetMs", "notBeforeMs"] as const) {
    const value = options[name];
    if (value !== undefined && !(Number.isInteger(value) && value >= 0 && value <= MAX_CLOCK_MS)) {
      throw new ClockRangeError(`${name} must be a whole number of milliseconds from 0 to ${MAX_CLOCK_MS}.`);
    }
  }
  const realNow = options.realNow ?? realTimeNow;
  const anchor = realNow();
  let offsetMs = options.offsetMs ?? 0;
  if (options.notBeforeMs !== undefined && anchor + offsetMs < options.notBeforeMs) {
    offsetMs = options.notBeforeMs - anchor;
  }
  let last = -Infinity;

  const now = (): number => {
    const computed = Math.floor(anchor + (realNow() - anchor) * timeScale + offsetMs);
    last = Math.max(last, Math.min(computed, MAX_CLOCK_MS));
    return last;
  };

  // A creation asks for the time as text several times within one millisecond: format each millisecond once.
  let formattedMs = NaN;
  let formatted = "";
  const nowIso = (): string => {
    const ms = now();
    if (ms !== formattedMs) {
      formattedMs = ms;
      formatted = new Date(ms).toISOString();
    }
    return formatted;
  };

  return {
    now,
    nowIso,
    offsetSeconds: () => Math.floor(offsetMs / 1000),
    timeScale,
    advance(seconds: number) {
      if (!Number.isInteger(seconds) || seconds < 1) throw new RangeError("seconds must be a positive integer");
      const room = Math.floor((MAX_CLOCK_MS - now()) / 1000);
      if (seconds > room) {
        throw new ClockRangeError(
          `Advancing the clock by ${seconds} seconds would take it past ${new Date(MAX_CLOCK_MS).toISOString()}, the latest time paysim can show; ` +
            (room > 0 ? `it can move at most ${room} more seconds.` : "it cannot move any further."),
        );
      }
      offsetMs += seconds * 1000;
    },
  };
}

/**
 * The wall clock, for facts about the process rather than the sandbox (when a server started, for
 * telling running servers apart): never for anything the virtual clock schedules.
 */
export function wallClockIso(): string {
  return new Date(Date.now()).toISOString();
}

/**
 * The one clock of an instance (SPEC §8): real time × time scale, plus an offset
 * that `advance` increases. Every timestamp, schedule and window reads it; nothing
 * else in paysim reads the wall clock for domain time.
 */
export interface Clock {
  /** Virtual now, in epoch milliseconds. Never runs backwards. */
  now(): number;
  /** Virtual now as ISO 8601 UTC with milliseconds and `Z`. */
  nowIso(): string;
  /** Seconds added by `advance` so far (plus any catch-up after a restart). */
  offsetSeconds(): number;
  readonly timeScale: number;
  /** Moves virtual time forward by `seconds` (an integer ≥ 1). */
  advance(seconds: number): void;
}

export interface ClockOptions {
  /** Real time is multiplied by this from the moment the clock is made. Default 1. */
  timeScale?: number;
  /** Offset carried over from an earlier run, in milliseconds. */
  offsetMs?: number;
  /** The latest virtual time an earlier run reached: the clock starts no earlier. */
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
  if (!(timeScale > 0) || !Number.isFinite(timeScale)) throw new RangeError("timeScale must be a positive number");
  const realNow = options.realNow ?? Date.now;
  const anchor = realNow();
  let offsetMs = options.offsetMs ?? 0;
  if (options.notBeforeMs !== undefined && anchor + offsetMs < options.notBeforeMs) {
    offsetMs = options.notBeforeMs - anchor;
  }
  let last = -Infinity;

  const now = (): number => {
    const computed = Math.floor(anchor + (realNow() - anchor) * timeScale + offsetMs);
    last = Math.max(last, computed);
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

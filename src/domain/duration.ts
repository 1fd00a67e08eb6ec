import ms from "ms";

/** Milliseconds in the units `paysim clock advance` and durations accept. */
export const MS = { second: 1000, minute: 60_000, hour: 3_600_000, day: 86_400_000 } as const;

/** The longest single clock advance (docs/api.md): one year of 365 days, in seconds. */
export const MAX_ADVANCE_SECONDS = 31_536_000;

const EXAMPLES = "e.g. 90s, 10m, 6h or 1d";

/** A duration the clock cannot be advanced by; the message says what to write instead. */
export class InvalidDurationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "InvalidDurationError";
  }
}

/** A number followed by a unit word; `ms` alone would read a bare "10" as 10 milliseconds. */
const NUMBER_WITH_UNIT = /^\s*\d*\.?\d+\s*[a-z]+\s*$/i;

/**
 * Turns a clock-advance duration into whole seconds, 1 … 31 536 000. A unit is
 * required (a bare number is ambiguous: seconds or milliseconds?); any unit the
 * `ms` package knows is accepted ("90s", "10m", "6h", "1d", "2 days", "1.5h").
 *
 * @example
 * parseDuration("6h")  // 21600
 * parseDuration("90")  // throws InvalidDurationError: a unit is required
 */
export function parseDuration(text: string): number {
  const shown = JSON.stringify(text);
  if (/^\s*-/.test(text)) throw new InvalidDurationError(`${shown} is negative: the clock only moves forward; give a duration such as 6h.`);
  if (/^\s*\d*\.?\d+\s*$/.test(text)) throw new InvalidDurationError(`${shown} has no unit: write it with one, ${EXAMPLES}.`);
  const millis = NUMBER_WITH_UNIT.test(text) ? ms(text.trim() as ms.StringValue) : undefined;
  if (millis === undefined || !Number.isFinite(millis)) {
    throw new InvalidDurationError(`${shown} is not a duration: write a number and a unit, ${EXAMPLES}.`);
  }
  if (millis % 1000 !== 0) throw new InvalidDurationError(`${shown} is not a whole number of seconds: the clock moves in whole seconds.`);
  return checkAdvanceSeconds(millis / 1000, shown);
}

/**
 * Accepts what `clock.advance()` of startPaysim takes: a duration string, or a
 * number of seconds (an integer 1 … 31 536 000).
 *
 * @example
 * toAdvanceSeconds("10m") // 600
 * toAdvanceSeconds(30)    // 30
 */
export function toAdvanceSeconds(duration: string | number): number {
  if (typeof duration === "string") return parseDuration(duration);
  if (typeof duration !== "number" || !Number.isInteger(duration)) {
    throw new InvalidDurationError(`${String(duration)} is not a whole number of seconds: pass an integer or a duration string, ${EXAMPLES}.`);
  }
  return checkAdvanceSeconds(duration, String(duration));
}

function checkAdvanceSeconds(seconds: number, shown: string): number {
  if (seconds < 1) throw new InvalidDurationError(`${shown} is too short: the clock moves by at least 1 second.`);
  if (seconds > MAX_ADVANCE_SECONDS) {
    throw new InvalidDurationError(`${shown} is too long: one advance moves the clock by at most ${MAX_ADVANCE_SECONDS} seconds (365 days).`);
  }
  return seconds;
}

/**
 * Shows a number of seconds the way a person reads it, largest units first.
 *
 * @example
 * formatSeconds(93_784) // "1d 2h 3m 4s"
 */
export function formatSeconds(seconds: number): string {
  if (seconds === 0) return "0s";
  const parts: string[] = [];
  let rest = Math.floor(seconds);
  for (const [unit, size] of [
    ["d", 86_400],
    ["h", 3_600],
    ["m", 60],
    ["s", 1],
  ] as const) {
    const count = Math.floor(rest / size);
    if (count > 0) parts.push(`${count}${unit}`);
    rest -= count * size;
  }
  return parts.join(" ");
}

import { describe, expect, it } from "vitest";
import { isTimeScale, MAX_TIME_SCALE } from "../../src/domain/time-scale.js";
import { ClockRangeError, createClock, MAX_CLOCK_MS, parseStoredClockMs } from "../../src/runtime/clock.js";
import { MS } from "../../src/domain/duration.js";

/** A real-time source the test moves by hand. */
function fakeRealTime(start = Date.UTC(2030, 0, 1)) {
  let now = start;
  return { realNow: () => now, set: (ms: number) => void (now = ms), add: (ms: number) => void (now += ms) };
}

describe("createClock", () => {
  it("follows real time at scale 1", () => {
    const real = fakeRealTime();
    const clock = createClock({ realNow: real.realNow });
    const start = clock.now();
    real.add(1500);
    expect(clock.now() - start).toBe(1500);
  });

  it.each([2, 60, 0.5])("multiplies elapsed real time by the time scale %d", (scale) => {
    const real = fakeRealTime();
    const clock = createClock({ realNow: real.realNow, timeScale: scale });
    const start = clock.now();
    real.add(10_000);
    expect(clock.now() - start).toBe(10_000 * scale);
    expect(clock.timeScale).toBe(scale);
  });

  it.each([0, -1, Number.NaN, Number.POSITIVE_INFINITY])("refuses the time scale %d", (scale) => {
    expect(() => createClock({ timeScale: scale })).toThrow(RangeError);
  });

  it("never runs backwards, even when real time does", () => {
    const real = fakeRealTime();
    const clock = createClock({ realNow: real.realNow });
    real.add(5000);
    const before = clock.now();
    real.add(-60_000);
    expect(clock.now()).toBe(before);
    real.add(60_000 + 1);
    expect(clock.now()).toBe(before + 1);
  });

  it("moves forward by exactly the seconds advanced, and counts them in offsetSeconds", () => {
    const real = fakeRealTime();
    const clock = createClock({ realNow: real.realNow });
    const start = clock.now();
    clock.advance(86_400);
    expect(clock.now() - start).toBe(MS.day);
    expect(clock.offsetSeconds()).toBe(86_400);
    clock.advance(1);
    expect(clock.offsetSeconds()).toBe(86_401);
  });

  it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])("refuses to advance by %d seconds and does not move", (seconds) => {
    const real = fakeRealTime();
    const clock = createClock({ realNow: real.realNow });
    const start = clock.now();
    expect(() => clock.advance(seconds)).toThrow(RangeError);
    expect(clock.now()).toBe(start);
    expect(clock.offsetSeconds()).toBe(0);
  });

  it("carries an offset from an earlier run", () => {
    const real = fakeRealTime();
    const clock = createClock({ realNow: real.realNow, offsetMs: 3_600_000 });
    expect(clock.now()).toBe(real.realNow() + 3_600_000);
    expect(clock.offsetSeconds()).toBe(3600);
  });

  it("starts no earlier than notBeforeMs, catching the offset up", () => {
    const real = fakeRealTime();
    const later = real.realNow() + 10 * MS.day;
    const clock = createClock({ realNow: real.realNow, notBeforeMs: later });
    expect(clock.now()).toBe(later);
    expect(clock.offsetSeconds()).toBe(10 * 86_400);
  });

  it("ignores a notBeforeMs already in the past", () => {
    const real = fakeRealTime();
    const clock = createClock({ realNow: real.realNow, notBeforeMs: real.realNow() - MS.hour });
    expect(clock.now()).toBe(real.realNow());
    expect(clock.offsetSeconds()).toBe(0);
  });

  it("gives ISO 8601 UTC with milliseconds and Z", () => {
    const real = fakeRealTime(Date.UTC(2030, 0, 1, 12, 30, 45, 7));
    const clock = createClock({ realNow: real.realNow });
    expect(clock.nowIso()).toBe("2030-01-01T12:30:45.007Z");
  });

  it("gives the new time as text as soon as a millisecond passes or the clock is advanced", () => {
    const real = fakeRealTime(Date.UTC(2030, 0, 1, 12, 30, 45, 7));
    const clock = createClock({ realNow: real.realNow });
    expect(clock.nowIso()).toBe("2030-01-01T12:30:45.007Z");
    expect(clock.nowIso()).toBe("2030-01-01T12:30:45.007Z");
    real.add(1);
    expect(clock.nowIso()).toBe("2030-01-01T12:30:45.008Z");
    clock.advance(60);
    expect(clock.nowIso()).toBe("2030-01-01T12:31:45.008Z");
  });

  it("reads the wall clock when no source is given", () => {
    const before = Date.now();
    const now = createClock().now();
    expect(now).toBeGreaterThanOrEqual(before);
    expect(now).toBeLessThanOrEqual(Date.now());
  });
});

describe("the clock's range: dates stay valid, up to the end of year 9999", () => {
  const END = "9999-12-31T23:59:59.999Z";

  it("ends at the last millisecond of year 9999", () => {
    expect(new Date(MAX_CLOCK_MS).toISOString()).toBe(END);
  });

  it.each([1e-6, 1, 60, MAX_TIME_SCALE])("accepts the time scale %d", (scale) => {
    expect(createClock({ timeScale: scale }).timeScale).toBe(scale);
    expect(isTimeScale(scale)).toBe(true);
  });

  it.each([MAX_TIME_SCALE + 1, 1e13, Number.MAX_VALUE])("refuses the time scale %d, saying the allowed range", (scale) => {
    expect(isTimeScale(scale)).toBe(false);
    expect(() => createClock({ timeScale: scale })).toThrow(ClockRangeError);
    expect(() => createClock({ timeScale: scale })).toThrow(`timeScale must be a number greater than 0 and at most ${MAX_TIME_SCALE}.`);
  });

  it("stops at the end of year 9999 instead of running into invalid dates, at the fastest time scale", () => {
    const real = fakeRealTime();
    const clock = createClock({ realNow: real.realNow, timeScale: MAX_TIME_SCALE });
    real.add(30 * MS.day); // a month of real running: far more than the range at this scale
    expect(clock.now()).toBe(MAX_CLOCK_MS);
    expect(clock.nowIso()).toBe(END);
    real.add(MS.day);
    expect(clock.nowIso()).toBe(END);
  });

  it("refuses an advance that would pass the end, unmoved, saying how far it can still go", () => {
    const real = fakeRealTime();
    const twoDaysBefore = MAX_CLOCK_MS - 2 * MS.day;
    const clock = createClock({ realNow: real.realNow, notBeforeMs: twoDaysBefore });
    const offset = clock.offsetSeconds();
    expect(() => clock.advance(3 * 86_400)).toThrow(ClockRangeError);
    expect(() => clock.advance(3 * 86_400)).toThrow(`past ${END}, the latest time paysim can show; it can move at most 172800 more seconds.`);
    expect(clock.now()).toBe(twoDaysBefore);
    expect(clock.offsetSeconds()).toBe(offset);
    clock.advance(172_800);
    expect(clock.nowIso()).toBe(END);
    expect(() => clock.advance(1)).toThrow("it cannot move any further.");
  });

  it.each([
    ["offsetMs", { offsetMs: MAX_CLOCK_MS + 1 }],
    ["offsetMs", { offsetMs: -1 }],
    ["offsetMs", { offsetMs: 1.5 }],
    ["notBeforeMs", { notBeforeMs: 1.2e22 }],
    ["notBeforeMs", { notBeforeMs: Number.NaN }],
  ])("refuses a carried-over %s out of range", (name, options) => {
    expect(() => createClock(options)).toThrow(new ClockRangeError(`${name} must be a whole number of milliseconds from 0 to ${MAX_CLOCK_MS}.`));
  });
});

describe("parseStoredClockMs", () => {
  it.each([
    [undefined, 0],
    ["0", 0],
    ["1767225600000", 1_767_225_600_000],
    [String(MAX_CLOCK_MS), MAX_CLOCK_MS],
  ])("reads %j as %d", (text, ms) => {
    expect(parseStoredClockMs(text)).toBe(ms);
  });

  it.each([
    ["1.2e+22", `is 1.2e+22 ms, past ${"9999-12-31T23:59:59.999Z"}, the latest time paysim can show`],
    [String(MAX_CLOCK_MS + 1), `is ${MAX_CLOCK_MS + 1} ms, past 9999-12-31T23:59:59.999Z, the latest time paysim can show`],
    ["Infinity", "is Infinity ms, past 9999-12-31T23:59:59.999Z, the latest time paysim can show"],
    ["-5", 'is "-5", not a whole number of milliseconds from 0'],
    ["1.5", 'is "1.5", not a whole number of milliseconds from 0'],
    ["", 'is "", not a whole number of milliseconds from 0'],
    ["soon", 'is "soon", not a whole number of milliseconds from 0'],
  ])("refuses %j", (text, message) => {
    expect(() => parseStoredClockMs(text)).toThrow(new ClockRangeError(message));
  });
});

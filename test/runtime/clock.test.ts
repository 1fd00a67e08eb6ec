import { describe, expect, it } from "vitest";
import { createClock } from "../../src/runtime/clock.js";
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

import { describe, expect, it } from "vitest";
import { createClock } from "../../src/runtime/clock.js";
import { createDueTimer, MAX_TIMER_MS, realDelayUntil } from "../../src/runtime/due-timer.js";
import { defer } from "../helpers/disposables.js";
import { manualTimers } from "../helpers/manual-timers.js";

const T0 = Date.parse("2030-01-01T00:00:00.000Z");

describe("realDelayUntil", () => {
  it.each([
    { inMs: 1000, timeScale: 1, delay: 1000 },
    { inMs: 60_000, timeScale: 60, delay: 1000 },
    { inMs: 1, timeScale: 1000, delay: 1 }, // rounded up: it never fires before the time
    { inMs: 0, timeScale: 1, delay: 0 },
    { inMs: -5000, timeScale: 1, delay: 0 }, // overdue: at once
    { inMs: 10 * MAX_TIMER_MS, timeScale: 1, delay: MAX_TIMER_MS }, // beyond what a Node timer takes
  ])("is $delay real ms for a time $inMs ms of clock away at scale $timeScale", ({ inMs, timeScale, delay }) => {
    const clock = createClock({ timeScale, realNow: () => T0 });
    expect(realDelayUntil(clock.now() + inMs, clock)).toBe(delay);
  });
});

/** A clock at `timeScale` and a timer, both on timers the test moves (real time moves only when the test moves it). */
function movedTimeTimer(timeScale: number) {
  const timers = manualTimers(T0);
  const clock = createClock({ timeScale, realNow: timers.now });
  const fired: number[] = [];
  const timer = createDueTimer(clock, () => fired.push(clock.now()), timers);
  defer(() => timer.clear());
  return { clock, timer, fired, timers };
}

describe("the due timer", () => {
  it("fires when the scaled clock reaches the time it is armed for, not before", () => {
    const { clock, timer, fired, timers } = movedTimeTimer(60);
    const due = clock.now() + 60_000;
    timer.arm(due);
    expect(timer.armedFor()).toBe(due);
    timers.advance(999);
    expect(fired).toEqual([]);
    timers.advance(1);
    expect(fired).toEqual([due]);
  });

  it("arming again replaces the earlier time: it fires once, at the new one", () => {
    const { clock, timer, fired, timers } = movedTimeTimer(1);
    timer.arm(clock.now() + 5000);
    timer.arm(clock.now() + 1000);
    expect(timer.armedFor()).toBe(T0 + 1000);
    timers.advance(10_000);
    expect(fired).toEqual([T0 + 1000]);
  });

  it("armed for no time, or cleared, it never fires", () => {
    const { clock, timer, fired, timers } = movedTimeTimer(1);
    timer.arm(clock.now() + 1000);
    timer.arm(undefined);
    expect(timer.armedFor()).toBe(Infinity);
    timer.arm(clock.now() + 2000);
    timer.clear();
    expect(timer.armedFor()).toBe(Infinity);
    timers.advance(10_000);
    expect(fired).toEqual([]);
  });
});

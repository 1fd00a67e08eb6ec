import { describe, expect, it } from "vitest";
import { manualTimers } from "./manual-timers.js";

describe("manualTimers", () => {
  it("fires nothing until moved, then each timer due on the way, earliest first, with now at its due time", () => {
    const timers = manualTimers(1000);
    const fired: [string, number][] = [];
    timers.setTimeout(() => fired.push(["b", timers.now()]), 30);
    timers.setTimeout(() => fired.push(["a", timers.now()]), 10);
    const cleared = timers.setTimeout(() => fired.push(["cleared", timers.now()]), 20);
    timers.clearTimeout(cleared);
    expect(timers.pending()).toBe(2);
    timers.advance(9);
    expect(fired).toEqual([]);
    timers.advance(25);
    expect(fired).toEqual([
      ["a", 1010],
      ["b", 1030],
    ]);
    expect(timers.now()).toBe(1034);
    expect(timers.pending()).toBe(0);
  });

  it("next() moves to the earliest timer, fires it and the timers it sets that fall due by then, and says how far it moved", () => {
    const timers = manualTimers();
    const fired: string[] = [];
    timers.setTimeout(() => {
      fired.push("first");
      timers.setTimeout(() => fired.push("at once"), 0);
    }, 5);
    timers.setTimeout(() => fired.push("later"), 50);
    expect(timers.next()).toBe(5);
    expect(fired).toEqual(["first", "at once"]);
    expect(timers.next()).toBe(45);
    expect(timers.next()).toBeUndefined();
  });

  it("settled() resolves once the work a fired timer set going has run: its promises, ticks and immediates, one queuing the next", async () => {
    const timers = manualTimers();
    const steps: string[] = [];
    timers.setTimeout(() => {
      steps.push("fired");
      void Promise.resolve().then(() =>
        setImmediate(() => {
          steps.push("immediate");
          process.nextTick(() => setImmediate(() => steps.push("immediate after a tick")));
        }),
      );
    }, 10);
    timers.advance(10);
    expect(steps).toEqual(["fired"]);
    await timers.settled();
    expect(steps).toEqual(["fired", "immediate", "immediate after a tick"]);
  });

  it("untilPending(n) resolves once n timers are pending, set in the code's own time", async () => {
    const timers = manualTimers();
    let reached = false;
    const two = timers.untilPending(2).then(() => (reached = true));
    timers.setTimeout(() => {}, 5);
    await timers.settled();
    expect(reached).toBe(false);
    setImmediate(() => timers.setTimeout(() => {}, 5));
    await two;
    expect(timers.pending()).toBe(2);
    await expect(timers.untilPending(1)).resolves.toBeUndefined();
  });
});

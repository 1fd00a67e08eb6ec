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
});

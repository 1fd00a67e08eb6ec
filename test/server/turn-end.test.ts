import { describe, expect, it } from "vitest";
import { createTurnEnd } from "../../src/server/turn-end.js";

describe("createTurnEnd", () => {
  it("runs held work after this turn's microtasks, in the order it was held", async () => {
    const atTurnEnd = createTurnEnd();
    const order: string[] = [];
    const first = atTurnEnd(() => (order.push("first"), 1));
    const second = atTurnEnd(() => (order.push("second"), 2));
    await Promise.resolve();
    queueMicrotask(() => order.push("microtask"));
    expect(order).toEqual([]);
    expect(await Promise.all([first, second])).toEqual([1, 2]);
    expect(order).toEqual(["microtask", "first", "second"]);
  });

  it("rejects the promise of work that throws, and still runs the rest", async () => {
    const atTurnEnd = createTurnEnd();
    const failing = atTurnEnd(() => {
      throw new Error("boom");
    });
    const after = atTurnEnd(() => "ran");
    await expect(failing).rejects.toThrow("boom");
    await expect(after).resolves.toBe("ran");
  });

  it("holds work given after a turn ended until the next one", async () => {
    const atTurnEnd = createTurnEnd();
    await atTurnEnd(() => undefined);
    let ran = false;
    const later = atTurnEnd(() => (ran = true));
    expect(ran).toBe(false);
    await later;
    expect(ran).toBe(true);
  });
});

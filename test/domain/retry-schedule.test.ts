import { describe, expect, it } from "vitest";
import { MAX_ATTEMPTS, RETRY_DELAYS_MS, nextAttemptAt } from "../../src/domain/retry-schedule.js";

const T = Date.parse("2030-01-01T00:00:00.000Z");
const SECOND = 1000;

describe("the retry schedule (seed: 30 s, 2 min, 10 min, 1 h, 6 h, 24 h)", () => {
  it.each([
    [1, 30 * SECOND],
    [2, 2 * 60 * SECOND],
    [3, 10 * 60 * SECOND],
    [4, 60 * 60 * SECOND],
    [5, 6 * 60 * 60 * SECOND],
    [6, 24 * 60 * 60 * SECOND],
  ])("after failed attempt %i, the next is due %i ms after that attempt", (attempt, delay) => {
    expect(nextAttemptAt(attempt, T)).toBe(T + delay);
  });

  it("counts each delay from the attempt before it, not from the first", () => {
    const third = T + 12_345;
    expect(nextAttemptAt(3, third)).toBe(third + 10 * 60 * SECOND);
  });

  it.each([7, 8, 100])("gives up after failed attempt %i", (attempt) => {
    expect(nextAttemptAt(attempt, T)).toBeUndefined();
  });

  it("makes 7 attempts in all: one first attempt and six retries", () => {
    expect(RETRY_DELAYS_MS).toHaveLength(6);
    expect(MAX_ATTEMPTS).toBe(7);
    // The 7th attempt is the last one scheduled.
    expect(nextAttemptAt(MAX_ATTEMPTS - 1, T)).toBeDefined();
    expect(nextAttemptAt(MAX_ATTEMPTS, T)).toBeUndefined();
  });

  it("spans 31 h 12 min 30 s from the first attempt to the last when every retry is on time", () => {
    let at = T;
    for (let attempt = 1; attempt < MAX_ATTEMPTS; attempt++) at = nextAttemptAt(attempt, at)!;
    expect(at - T).toBe((31 * 3600 + 12 * 60 + 30) * SECOND);
  });
});

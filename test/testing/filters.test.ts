import { describe, expect, it } from "vitest";
import { DEFAULT_WAIT_TIMEOUT_MS, eventMatcher, matchesDelivery, matchesEvent, waitTimeout, webhookMatcher } from "../../src/testing/filters.js";

const created = { type: "payment_intent.created", objectId: "pi_1", companyId: "co_1" };
const pending = { url: "http://127.0.0.1:9/a", status: "pending", endedAttempts: 0, attemptCount: 0, chaosMarks: [] as string[], resent: false };
/** A delivery after `count` scheduled attempts ended, with these chaos marks. */
const after = (count: number, status: string, chaosMarks: string[] = []) => ({
  ...pending,
  status,
  endedAttempts: count + chaosMarks.filter((mark) => mark === "duplicate").length,
  attemptCount: count,
  chaosMarks,
});

describe("matchesEvent", () => {
  it.each([
    [{}, created, true],
    [{ type: "payment_intent.created" }, created, true],
    [{ type: "payment_intent.captured" }, created, false],
    [{ type: ["payment_intent.captured", "payment_intent.created"] }, created, true],
    [{ objectId: "pi_1" }, created, true],
    [{ objectId: "pi_2" }, created, false],
    [{ objectId: "pi_1" }, { type: "payout.created", objectId: null, companyId: "co_1" }, false],
    [{ type: "payment_intent.created", objectId: "pi_2" }, created, false],
    [{ objectId: "pi_1" }, { ...created, companyId: "co_2" }, true],
  ])("%j matches %j: %s", (filter, event, expected) => {
    expect(matchesEvent(eventMatcher(filter), event)).toBe(expected);
  });
});

describe("matchesDelivery", () => {
  it.each([
    [{}, pending, false],
    [{}, { ...pending, status: "succeeded", endedAttempts: 1 }, true],
    [{ status: "succeeded" }, { ...pending, status: "failed", endedAttempts: 7 }, false],
    [{ status: "failed" }, { ...pending, status: "failed", endedAttempts: 7 }, true],
    [{ status: "failed" }, { ...pending, status: "failed", endedAttempts: 0 }, true],
    [{ status: "attempted" }, pending, false],
    [{ status: "attempted" }, { ...pending, endedAttempts: 1 }, true],
    [{ status: "attempted" }, { ...pending, status: "succeeded", endedAttempts: 1 }, true],
    [{ url: "http://127.0.0.1:9/b", status: "attempted" }, { ...pending, endedAttempts: 1 }, false],
    [{ url: "http://127.0.0.1:9/a", status: "attempted" }, { ...pending, endedAttempts: 1 }, true],
    [{ type: "payout.created", status: "attempted" }, { ...pending, endedAttempts: 1 }, false],
    // attempt n: the n-th scheduled attempt has ended, whatever it got, unless a status is given too.
    [{ attempt: 2 }, after(1, "pending"), false],
    [{ attempt: 2 }, after(2, "pending"), true],
    [{ attempt: 2 }, after(3, "succeeded"), true],
    [{ attempt: 2, status: "succeeded" }, after(2, "pending"), false],
    [{ attempt: 2, status: "succeeded" }, after(3, "succeeded"), true],
    [{ attempt: 7, status: "failed" }, after(7, "failed"), true],
    // A chaos duplicate is an extra attempt, not one of the schedule's.
    [{ attempt: 2 }, after(1, "succeeded", ["duplicate"]), false],
    [{ chaos: "duplicate" }, after(1, "succeeded", ["duplicate"]), true],
    [{ chaos: "duplicate" }, after(1, "succeeded"), false],
    [{ chaos: "delayed" }, after(1, "pending", ["delayed"]), true],
    [{ chaos: "reordered", status: "succeeded" }, after(1, "pending", ["reordered"]), false],
    [{ chaos: "duplicate", attempt: 1 }, after(1, "succeeded", ["duplicate"]), true],
    // resent: a resend's deliveries only, or none of them; absent, either.
    [{ resent: true }, after(1, "succeeded"), false],
    [{ resent: true }, { ...after(1, "succeeded"), resent: true }, true],
    [{ resent: false }, { ...after(1, "succeeded"), resent: true }, false],
    [{}, { ...after(1, "succeeded"), resent: true }, true],
  ])("%j matches %j: %s", (filter, delivery, expected) => {
    expect(matchesDelivery(webhookMatcher(filter), created, delivery)).toBe(expected);
  });
});

describe("webhookMatcher", () => {
  it("checks only the company it is given, and the status only when asked or by default", () => {
    expect(matchesEvent({ ...eventMatcher({}), companyId: "co_2" }, created)).toBe(false);
    expect(webhookMatcher({}).status).toBe("succeeded");
    expect(webhookMatcher({ attempt: 1 }).status).toBe("attempted");
    expect(webhookMatcher({ chaos: "delayed" }).status).toBe("attempted");
    expect(webhookMatcher({ chaos: "delayed", status: "failed" }).status).toBe("failed");
  });

  it.each([[{ attempt: 0 }], [{ attempt: 8 }], [{ attempt: 1.5 }], [{ attempt: "2" }], [{ chaos: "lost" }]])("refuses %j", (filter) => {
    expect(() => webhookMatcher(filter)).toThrow(TypeError);
  });
});

describe("waitTimeout", () => {
  it.each([
    [undefined, DEFAULT_WAIT_TIMEOUT_MS],
    [{}, DEFAULT_WAIT_TIMEOUT_MS],
    [{ timeout: 0 }, 0],
    [{ timeout: 2_147_483_647 }, 2_147_483_647],
  ])("%j waits %d ms", (options, expected) => {
    expect(waitTimeout(options)).toBe(expected);
  });

  it.each([[{ timeout: -1 }], [{ timeout: 0.5 }], [{ timeout: 2 ** 31 }], [{ timeout: "1" }], [{ timout: 10 }], [5]])("refuses %j", (options) => {
    expect(() => waitTimeout(options)).toThrow(TypeError);
  });
});

import { describe, expect, it } from "vitest";
import { DEFAULT_WAIT_TIMEOUT_MS, eventMatcher, matchesDelivery, matchesEvent, waitTimeout, webhookMatcher } from "../../src/testing/filters.js";

const created = { type: "payment_intent.created", objectId: "pi_1" };
const pending = { url: "http://127.0.0.1:9/a", status: "pending", endedAttempts: 0 };

describe("matchesEvent", () => {
  it.each([
    [{}, created, true],
    [{ type: "payment_intent.created" }, created, true],
    [{ type: "payment_intent.captured" }, created, false],
    [{ type: ["payment_intent.captured", "payment_intent.created"] }, created, true],
    [{ objectId: "pi_1" }, created, true],
    [{ objectId: "pi_2" }, created, false],
    [{ objectId: "pi_1" }, { type: "payout.created", objectId: null }, false],
    [{ type: "payment_intent.created", objectId: "pi_2" }, created, false],
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
  ])("%j matches %j: %s", (filter, delivery, expected) => {
    expect(matchesDelivery(webhookMatcher(filter), created, delivery)).toBe(expected);
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

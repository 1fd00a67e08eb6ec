import { describe, expect, it } from "vitest";
import { deliveryStateOf, type AttemptReport } from "../../src/ui/delivery-state.js";
import { countdown, deliveryLogText, deliveryStateText } from "../../src/ui/describe.js";
import type { DeliveryState } from "../../src/ui/delivery-state.js";

const NOW = Date.parse("2026-05-01T12:00:00.000Z");
const last500 = { statusCode: 500, error: null, durationMs: 12.4 };

describe("countdown", () => {
  it.each([
    [30_000, "00:30"],
    [29_001, "00:30"],
    [119_000, "01:59"],
    [600_000, "10:00"],
    [3_600_000, "1:00:00"],
    [86_400_000, "24:00:00"],
    [0, "00:00"],
    [-5_000, "00:00"],
  ])("%i ms reads %s", (ms, text) => {
    expect(countdown(ms)).toBe(text);
  });
});

describe("a delivery's state in words", () => {
  const cases: [string, DeliveryState, string][] = [
    ["sending", { kind: "sending" }, "sending…"],
    ["delivered", { kind: "delivered", attempts: 1, last: { statusCode: 200, error: null, durationMs: 12.4 } }, "delivered 200 in 12ms"],
    ["failing", { kind: "failing", attempts: 2, last: last500, nextAttemptMs: NOW + 119_000 }, "500, retry 2/6 in 01:59"],
    [
      "failing without an answer",
      { kind: "failing", attempts: 1, last: { statusCode: null, error: "connection refused", durationMs: 2 }, nextAttemptMs: NOW + 30_000 },
      "connection refused, retry 1/6 in 00:30",
    ],
    ["failing, retry due", { kind: "failing", attempts: 1, last: last500, nextAttemptMs: NOW }, "500, retry 1/6 due now"],
    ["given up", { kind: "gave_up", attempts: 7, last: last500 }, "gave up after 7 attempts (last 500)"],
    ["stopped by a deleted endpoint", { kind: "stopped", attempts: 2, last: last500 }, "stopped: endpoint deleted after 2 attempts (last 500)"],
    ["stopped before any attempt reported", { kind: "stopped", attempts: 0, last: null }, "stopped: endpoint deleted"],
    [
      "delivered again by chaos",
      { kind: "delivered", attempts: 1, last: { statusCode: 200, error: null, durationMs: 3, chaos: "duplicate" } },
      "delivered 200 in 3ms (chaos: duplicate)",
    ],
    [
      "failing after a held first attempt",
      { kind: "failing", attempts: 1, last: { ...last500, chaos: "reordered" }, nextAttemptMs: NOW + 30_000 },
      "500 (chaos: reordered), retry 1/6 in 00:30",
    ],
  ];
  it.each(cases)("%s", (_name, state, text) => {
    expect(deliveryStateText(state, NOW)).toBe(text);
  });
});

describe("one reading of an attempt's report, worded for the live view and for the log", () => {
  const report = (status: AttemptReport["status"], attempts: number, nextAttemptMs: number | null = null): AttemptReport => ({
    status,
    attempts,
    last: last500,
    nextAttemptMs,
  });
  it.each([
    ["delivered", report("succeeded", 1), "delivered", "good", "delivered 500 in 12ms"],
    ["retrying", report("pending", 2, NOW + 119_000), "retry 2/6 at 2026-05-01T12:01:59.000Z", "warn", "500, retry 2/6 in 01:59"],
    ["retry not yet scheduled", report("pending", 1), "retry 1/6 scheduled", "warn", "500, retry 1/6 scheduled"],
    ["given up after the last attempt", report("failed", 7), "gave up after 7 attempts", "bad", "gave up after 7 attempts (last 500)"],
    [
      "stopped before the last attempt (endpoint deleted)",
      report("failed", 2),
      "stopped after 2 attempts (endpoint deleted)",
      undefined,
      "stopped: endpoint deleted after 2 attempts (last 500)",
    ],
  ])("%s", (_name, facts, logText, tone, liveText) => {
    const state = deliveryStateOf(facts);
    expect(deliveryLogText(state)).toEqual(tone === undefined ? { text: logText } : { text: logText, tone });
    expect(deliveryStateText(state, NOW)).toBe(liveText);
  });
});

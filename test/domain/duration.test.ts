import { describe, expect, it } from "vitest";
import { formatSeconds, InvalidDurationError, MAX_ADVANCE_SECONDS, parseDuration, toAdvanceSeconds } from "../../src/domain/duration.js";

describe("parseDuration", () => {
  it.each([
    ["90s", 90],
    ["10m", 600],
    ["6h", 21_600],
    ["1d", 86_400],
    ["2 days", 172_800],
    ["1.5h", 5_400],
    ["2000ms", 2],
    ["365d", MAX_ADVANCE_SECONDS],
    [" 30s ", 30],
  ])("reads %j as %i seconds", (text, seconds) => {
    expect(parseDuration(text)).toBe(seconds);
  });

  it.each([
    ["90", /no unit/],
    ["", /not a duration/],
    ["6 fortnights", /not a duration/],
    ["h", /not a duration/],
    ["1e3s", /not a duration/],
    ["-1h", /negative/],
    ["1.5s", /whole number of seconds/],
    ["0s", /at least 1 second/],
    ["366d", /at most 31536000 seconds/],
    ["1y", /at most 31536000 seconds/],
  ])("refuses %j with a message saying what is wrong", (text, message) => {
    expect(() => parseDuration(text)).toThrow(InvalidDurationError);
    expect(() => parseDuration(text)).toThrow(message);
  });
});

describe("toAdvanceSeconds", () => {
  it("takes a number as seconds and a string as a duration", () => {
    expect(toAdvanceSeconds(45)).toBe(45);
    expect(toAdvanceSeconds("10m")).toBe(600);
  });

  it.each([0, -5, 1.5, Number.NaN, MAX_ADVANCE_SECONDS + 1])("refuses %d seconds", (seconds) => {
    expect(() => toAdvanceSeconds(seconds)).toThrow(InvalidDurationError);
  });
});

describe("formatSeconds", () => {
  it.each([
    [0, "0s"],
    [59, "59s"],
    [21_600, "6h"],
    [93_784, "1d 2h 3m 4s"],
  ])("shows %i as %j", (seconds, text) => {
    expect(formatSeconds(seconds)).toBe(text);
  });
});

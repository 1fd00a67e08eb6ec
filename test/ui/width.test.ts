import { describe, expect, it } from "vitest";
import { displayWidth, padEndToWidth, truncateToWidth } from "../../src/ui/width.js";

describe("displayWidth", () => {
  it.each([
    ["ASCII", "GET /v1/events", 14],
    ["CJK: two columns each", "日本語", 6],
    ["fullwidth forms", "ＡＢ", 4],
    ["Hangul", "한국", 4],
    ["an emoji", "✅", 2],
    ["a combining accent adds nothing", "e\u0301", 1],
    ["colours take no room", "\u001b[32m200\u001b[39m", 3],
    ["the view's marks", "✓ ↻ ✗ … → ·", 11],
  ])("%s", (_name, text, width) => {
    expect(displayWidth(text)).toBe(width);
  });
});

describe("truncateToWidth", () => {
  it.each([
    ["fits: unchanged", "abc", 3, "abc"],
    ["cut with an ellipsis in the last column", "abcdef", 4, "abc…"],
    ["a wide character that would straddle the edge goes", "日本語の", 6, "日本…"],
    ["CJK cut to fit", "/v1/日本語の支払い", 10, "/v1/日本…"],
  ])("%s", (_name, text, columns, cut) => {
    expect(truncateToWidth(text, columns)).toBe(cut);
    expect(displayWidth(truncateToWidth(text, columns))).toBeLessThanOrEqual(columns);
  });
});

describe("padEndToWidth", () => {
  it("pads to display columns", () => {
    expect(padEndToWidth("日本", 6)).toBe("日本  ");
    expect(padEndToWidth("abcdefg", 3)).toBe("abcdefg");
  });
});

import { describe, expect, it } from "vitest";
import { eraseReflowed, reflowedRows } from "../../src/ui/reflow.js";

const ESC = "\u001b[";

describe("reflowedRows", () => {
  it.each([
    ["one short line", "abc", 10, 1],
    ["an empty line still takes a row", "", 10, 1],
    ["a line exactly as wide as the terminal", "abcde", 5, 1],
    ["a line one wider wraps once", "abcdef", 5, 2],
    ["each line on its own", "ab\nabcde\n", 2, 1 + 3 + 1],
    ["colours take no room", `${ESC}2mabcde${ESC}22m`, 5, 1],
    ["marks and arrows are one column each", "↻ … →", 5, 1],
    ["a CJK character takes two columns", "日本語", 5, 2],
    ["a path with CJK wraps by columns, not characters", "GET /v1/payment_intents/日本語の支払い", 30, 2],
  ])("%s", (_name, frame, columns, rows) => {
    expect(reflowedRows(frame, columns)).toBe(rows);
  });
});

describe("eraseReflowed", () => {
  it("writes nothing when every line still fits", () => {
    expect(eraseReflowed("abc\nde", 3)).toBe("");
  });

  it("clears every row the re-wrapped frame and the cursor's row take, then goes down as many lines as the frame has", () => {
    // 2 lines; the first now takes 3 rows: 4 rows and the cursor's row are cleared, the cursor then moves 2 down.
    const clear = `${ESC}2K${ESC}1A`;
    expect(eraseReflowed("abcdefg\nx", 3)).toBe(`${clear.repeat(4)}${ESC}2K${ESC}G${ESC}2B`);
  });
});

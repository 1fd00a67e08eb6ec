import { stripVTControlCharacters } from "node:util";

/**
 * Display widths: the columns a terminal gives a text, which is what fits a line to the
 * terminal. A code point count is wrong for East Asian wide characters and emoji (two columns
 * each) and for combining marks (none). Ink measures its own layout the same way (with the
 * string-width package, which paysim does not depend on directly); these are the rules paysim's
 * own printed lines and the resize cleanup need.
 */

const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/** East Asian Wide and Fullwidth blocks (Unicode's EastAsianWidth W and F): two columns each. */
const WIDE: readonly (readonly [number, number])[] = [
  [0x1100, 0x115f],
  [0x2e80, 0x303e],
  [0x3041, 0x33ff],
  [0x3400, 0x4dbf],
  [0x4e00, 0x9fff],
  [0xa000, 0xa4cf],
  [0xa960, 0xa97f],
  [0xac00, 0xd7a3],
  [0xf900, 0xfaff],
  [0xfe10, 0xfe19],
  [0xfe30, 0xfe6f],
  [0xff00, 0xff60],
  [0xffe0, 0xffe6],
  [0x16fe0, 0x16fe4],
  [0x17000, 0x18aff],
  [0x1b000, 0x1b2ff],
  [0x1f200, 0x1f2ff],
  [0x20000, 0x2fffd],
  [0x30000, 0x3fffd],
];

const ZERO_WIDTH = /^[\p{Cc}\p{Cf}\p{M}]/u;
const EMOJI = /\p{Emoji_Presentation}|\uFE0F/u;

/** Columns one grapheme (a user-perceived character) takes. */
function graphemeWidth(grapheme: string): number {
  if (ZERO_WIDTH.test(grapheme)) return 0;
  if (EMOJI.test(grapheme)) return 2;
  const code = grapheme.codePointAt(0)!;
  return WIDE.some(([from, to]) => code >= from && code <= to) ? 2 : 1;
}

/**
 * Columns `text` takes on a terminal, escape sequences (colours) not counted.
 *
 * @example
 * displayWidth("abc")        // 3
 * displayWidth("日本語")      // 6
 * displayWidth("\u001b[32mok\u001b[39m") // 2
 */
export function displayWidth(text: string): number {
  let width = 0;
  for (const { segment } of segmenter.segment(stripVTControlCharacters(text))) width += graphemeWidth(segment);
  return width;
}

/**
 * `text` (without escape sequences) cut to at most `columns` columns, ending in "…" when cut, as
 * Ink cuts a line (`wrap="truncate-end"`); a wide character that would straddle the edge goes.
 *
 * @example
 * truncateToWidth("日本語の支払い", 7) // "日本語…"
 * truncateToWidth("short", 10)          // "short"
 */
export function truncateToWidth(text: string, columns: number): string {
  if (displayWidth(text) <= columns) return text;
  if (columns <= 0) return "";
  let kept = "";
  let width = 0;
  for (const { segment } of segmenter.segment(text)) {
    const next = graphemeWidth(segment);
    if (width + next > columns - 1) break;
    kept += segment;
    width += next;
  }
  return `${kept}…`;
}

/**
 * `text` padded with spaces to `columns` columns (as `padEnd` does for code points).
 *
 * @example
 * padEndToWidth("日本", 6) // "日本  "
 */
export function padEndToWidth(text: string, columns: number): string {
  return text + " ".repeat(Math.max(0, columns - displayWidth(text)));
}

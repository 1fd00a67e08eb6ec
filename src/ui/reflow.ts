import { cursorDown, eraseLines } from "ansi-escapes";
import { displayWidth } from "./width.js";

/**
 * Rows `frame` takes on a terminal of `columns` that re-wraps what it shows: a
 * line wider than the terminal continues on the next row. Widths are display
 * columns: a wide character (CJK, emoji) in a path or URL takes two.
 *
 * @example
 * reflowedRows("ab\nabcde", 2) // 1 + 3 = 4
 */
export function reflowedRows(frame: string, columns: number): number {
  return frame.split("\n").reduce((rows, line) => rows + Math.max(1, Math.ceil(displayWidth(line) / columns)), 0);
}

/**
 * What to write, with the cursor on the row below `frame` (where Ink leaves it),
 * after the terminal narrowed to `columns` and re-wrapped `frame`: it clears
 * every row the frame now takes, then puts the cursor where Ink, which counts the
 * frame's own lines, starts its erase, so that its erase ends on the frame's
 * first row instead of leaving the re-wrapped excess behind. Empty when the frame
 * still fits.
 *
 * @example
 * eraseReflowed("x".repeat(10), 5) // clears 3 rows (2 for the line, 1 for the cursor's), then 1 row down
 */
export function eraseReflowed(frame: string, columns: number): string {
  const lines = frame.split("\n").length;
  const rows = reflowedRows(frame, columns);
  if (rows <= lines) return "";
  // The frame's rows and the cursor's own: erased from the bottom up, ending in the first column.
  return eraseLines(rows + 1) + cursorDown(lines);
}

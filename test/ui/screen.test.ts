import { describe, expect, it } from "vitest";
import { replay } from "./helpers/screen.js";

// The test terminal the live view's tests read: it must redraw as a terminal does.
describe("replay", () => {
  it.each([
    ["plain lines", "a\nb\n", ["a", "b", ""]],
    [
      "a redrawn live region: erase two lines, then write over them",
      "x\nlive1\nlive2\n\u001b[2K\u001b[1A\u001b[2K\u001b[1A\u001b[2K\u001b[Gnew\n",
      ["x", "new", "", ""],
    ],
    ["styles take no room", "\u001b[32mok\u001b[39m\n", ["ok", ""]],
    ["a clear starts over", "a\nb\n\u001b[2J\u001b[3J\u001b[Hc\n", ["c", ""]],
  ])("%s", (_name, written, rows) => {
    expect(replay(written)).toEqual(rows);
  });
});

import { describe, expect, it } from "vitest";
import { fields, paintStatus, table } from "../../src/cli/format.js";
import { colourEnabled } from "../../src/ui/terminal.js";

describe("CLI output formatting", () => {
  it.each([
    [{ isTTY: true }, {}, true],
    [{ isTTY: true }, { NO_COLOR: "1" }, false],
    [{ isTTY: true }, { NO_COLOR: "" }, true],
    [{ isTTY: true }, { TERM: "dumb" }, false],
    [{ isTTY: false }, {}, false],
    [{}, {}, false],
    [{ isTTY: true }, { CI: "true" }, false],
    [{ isTTY: true }, { CI: "1" }, false],
    [{ isTTY: true }, { CONTINUOUS_INTEGRATION: "yes" }, false],
    [{ isTTY: true }, { CI: "false" }, true],
    [{ isTTY: true }, { CI: "0" }, true],
  ])("colours a stream %j with env %j: %s", (stream, env, expected) => {
    expect(colourEnabled(stream, env)).toBe(expected);
  });

  const rows = [
    { id: "po_1", status: "succeeded" },
    { id: "po_22", status: "failed" },
  ];
  const columns = [
    { header: "ID", value: (r: (typeof rows)[number]) => r.id },
    { header: "STATUS", value: (r: (typeof rows)[number]) => r.status, paint: (t: string) => paintStatus(t, true) },
    { header: "NOTE", value: () => "x" },
  ];

  it("aligns columns under their headers", () => {
    expect(table(rows, columns, false)).toEqual(["ID     STATUS     NOTE", "po_1   succeeded  x", "po_22  failed     x"]);
  });

  it("keeps columns aligned when cells are coloured", () => {
    const plain = (line: string) => line.replace(/\u001b\[\d+m/g, "");
    const coloured = table(rows, columns, true);
    expect(coloured[1]).toContain("\u001b[");
    expect(coloured.map(plain)).toEqual(table(rows, columns, false));
  });

  it("aligns label/value blocks", () => {
    expect(fields([["id", "po_1"], ["status", "—"]], "  ", false)).toEqual(["  id      po_1", "  status  —"]);
  });
});

import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { stripVTControlCharacters } from "node:util";
import { describe, expect, it } from "vitest";
import { fields, paintStatus, table } from "../../src/cli/format.js";
import { colourEnabled } from "../../src/ui/terminal.js";

const TERMINAL_MODULE = fileURLToPath(new URL("../../src/ui/terminal.ts", import.meta.url));

describe("CLI output formatting", () => {
  it.each([
    [{ isTTY: true }, {}, false, true],
    [{ isTTY: true }, { NO_COLOR: "1" }, false, false],
    [{ isTTY: true }, { NO_COLOR: "" }, false, true],
    [{ isTTY: true }, { TERM: "dumb" }, false, false],
    [{ isTTY: false }, {}, false, false],
    [{}, {}, false, false],
    [{ isTTY: true }, {}, true, false],
  ])("colours a stream %j with env %j (in CI: %s): %s", (stream, env, inCi, expected) => {
    expect(colourEnabled(stream, env, inCi)).toBe(expected);
  });

  // Under CI is is-in-ci's verdict, read from the environment when it loads: a child process each.
  it.each([
    [{ CI: "true" }, false],
    [{ CI: "1" }, false],
    [{ CONTINUOUS_INTEGRATION: "yes" }, false],
    [{ CI: "false" }, true],
    [{ CI: "0" }, true],
    [{}, true],
  ])("counts a TTY with env %j as interactive: %s", (env, expected) => {
    const script = `import("${TERMINAL_MODULE}").then((m) => console.log(m.interactiveTerminal({ isTTY: true })))`;
    const { CI: _ci, CONTINUOUS_INTEGRATION: _ci2, ...rest } = process.env;
    const run = spawnSync(process.execPath, ["--import", "tsx", "-e", script], { env: { ...rest, ...env }, encoding: "utf8" });
    expect(run.stdout.trim(), run.stderr).toBe(String(expected));
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
    const plain = (line: string) => stripVTControlCharacters(line);
    const coloured = table(rows, columns, true);
    expect(coloured[1]).toContain("\u001b[");
    expect(coloured.map(plain)).toEqual(table(rows, columns, false));
  });

  it("aligns label/value blocks", () => {
    expect(
      fields(
        [
          ["id", "po_1"],
          ["status", "—"],
        ],
        "  ",
        false,
      ),
    ).toEqual(["  id      po_1", "  status  —"]);
  });
});

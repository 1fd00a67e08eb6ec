import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { stripVTControlCharacters } from "node:util";
import { describe, expect, it } from "vitest";
import { fields, paintStatus, table, text } from "../../src/cli/format.js";
import { writable } from "../../src/cli/output.js";
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

  it("escapes a control in a cell before measuring and painting it, so the columns stay aligned", () => {
    const hostile = [{ id: "po_\u001b[2J", status: "succeeded" }, ...rows];
    const lines = table(hostile, columns, true).map((line) => stripVTControlCharacters(line));
    expect(lines[1]).toBe("po_\\u001b[2J  succeeded  x");
    expect(lines[2]).toBe("po_1          succeeded  x");
    expect(table(hostile, columns, true)[1]).toContain("\u001b[32msucceeded\u001b[39m");
  });

  it("escapes a value, and paints it after, in a label/value block", () => {
    expect(fields([["status", "succeeded\r\nforged", (t) => paintStatus(t, true)]], "", false)).toEqual(["status  succeeded\\u000d\\u000aforged"]);
    expect(fields([["status", "succeeded", (t) => paintStatus(t, true)]], "", true)[0]).toContain("\u001b[32msucceeded\u001b[39m");
  });

  it("escapes an API field shown as text, masking a card number it splits first", () => {
    expect(text("evt_\u001b]0;x\u0007")).toBe("evt_\\u001b]0;x\\u0007");
    expect(text("4242\t4242\t4242\t4242")).toBe("****\\u0009****\\u0009****\\u00094242");
  });
});

describe("what the CLI writes (the net under the format helpers)", () => {
  // eslint-disable-next-line no-control-regex -- the colour codes Output keeps on a terminal
  const STYLES = /(\n|\u001b\[(?:1|2|22|3[1236]|39)m)/;

  it("escapes every control, a line break and paysim's colour codes kept only where asked", () => {
    expect(writable("a\u001b]0;x\u0007\nb\u009b\u202e")).toBe("a\\u001b]0;x\\u0007\\u000ab\\u009b\\u202e");
    expect(writable("a\nb\r", () => /(\n)/)).toBe("a\nb\\u000d");
    expect(writable("\u001b[32mok\u001b[39m \u001b[8mhidden\u001b]0;x\u0007", () => STYLES)).toBe("\u001b[32mok\u001b[39m \\u001b[8mhidden\\u001b]0;x\\u0007");
  });

  it("keeps a --json line valid JSON that reads back the same", () => {
    const value = { path: "/v1/\u009b2J\u007f\u202e\u2066", note: "\u001b[2J" };
    const line = writable(JSON.stringify(value), () => STYLES);
    expect(line).not.toMatch(/[\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
    expect(JSON.parse(line)).toEqual(value);
  });

  it("masks before escaping", () => {
    expect(writable("4242\t4242\t4242\t4242")).toBe("****\\u0009****\\u0009****\\u00094242");
  });
});

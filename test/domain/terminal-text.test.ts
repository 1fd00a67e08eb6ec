import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { escapeControls, holdsControls, terminalText } from "../../src/domain/terminal-text.js";

const hex4 = (code: number) => `\\u${code.toString(16).padStart(4, "0")}`;
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe("escapeControls", () => {
  it.each([
    ["C0 (NUL to US, TAB, LF, CR and ESC among them)", range(0x00, 0x1f)],
    ["DEL", [0x7f]],
    ["C1 (U+0080 to U+009F, CSI U+009B and OSC U+009D among them)", range(0x80, 0x9f)],
    ["the bidirectional embeddings and overrides (LRE, RLE, PDF, LRO, RLO)", range(0x202a, 0x202e)],
    ["the bidirectional isolates (LRI, RLI, FSI, PDI)", range(0x2066, 0x2069)],
    ["the bidirectional marks (ALM, LRM, RLM)", [0x061c, 0x200e, 0x200f]],
    ["the line and paragraph separators", [0x2028, 0x2029]],
  ])("writes each of %s as \\u and four lowercase hex digits", (_class, codes) => {
    for (const code of codes) {
      const char = String.fromCharCode(code);
      expect(escapeControls(`a${char}b`)).toBe(`a${hex4(code)}b`);
      expect(holdsControls(char)).toBe(true);
    }
  });

  it.each([
    ["printable ASCII", range(0x20, 0x7e)],
    ["Latin-1 after C1 (NBSP, é, ÿ)", range(0xa0, 0xff)],
    ["the neighbours of the escaped ranges", [0x061b, 0x061d, 0x200d, 0x2010, 0x2027, 0x202f, 0x2065, 0x206a]],
    ["text of other scripts and emoji", [..."日本語 العربية עברית 💳"].map((c) => c.codePointAt(0)!)],
  ])("keeps %s as it is", (_class, codes) => {
    const text = String.fromCodePoint(...codes);
    expect(escapeControls(text)).toBe(text);
    expect(holdsControls(text)).toBe(false);
  });

  it.each([
    ["a title set by OSC 0", "/v1/\u001b]0;PWNED\u0007", "/v1/\\u001b]0;PWNED\\u0007"],
    ["a screen cleared", "\u001b[2J\u001b[H", "\\u001b[2J\\u001b[H"],
    ["a forged log line", "/v1/x 200 1ms\r\nGET /v1/y", "/v1/x 200 1ms\\u000d\\u000aGET /v1/y"],
    ["a name shown right to left", "ACME\u202etxt.exe", "ACME\\u202etxt.exe"],
    ["an 8-bit CSI", "\u009b31m", "\\u009b31m"],
  ])("makes %s visible text", (_name, input, expected) => {
    expect(escapeControls(input)).toBe(expected);
  });

  it("keeps a backslash as it is, so that escaping twice is escaping once", () => {
    expect(escapeControls("C:\\paysim\\u001b")).toBe("C:\\paysim\\u001b");
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (text) => {
        const once = escapeControls(text);
        expect(holdsControls(once)).toBe(false);
        expect(escapeControls(once)).toBe(once);
      }),
    );
  });

  it("reads back as the original text the way a JSON string does", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: "binary" }).filter((text) => !text.includes("\\") && !text.includes('"')),
        (text) => {
          expect(JSON.parse(`"${escapeControls(text)}"`)).toBe(text);
        },
      ),
    );
  });
});

describe("terminalText", () => {
  it.each([
    ["split by TABs", "4242\t4242\t4242\t4242", "****\\u0009****\\u0009****\\u00094242"],
    ["split by left-to-right marks", "4242\u200e4242\u200e4242\u200e4242", "****\\u200e****\\u200e****\\u200e4242"],
    ["split by CR LF", "4242\r\n4242\r\n4242\r\n4242", "****\\u000d\\u000a****\\u000d\\u000a****\\u000d\\u000a4242"],
  ])("masks a card number %s before escaping what splits it", (_name, input, expected) => {
    expect(terminalText(input)).toBe(expected);
    // Escaped first, the card number would be in clear: the escapes break its digits apart.
    expect(escapeControls(input)).toContain("4242\\u");
  });

  it("leaves text with nothing to escape as it is (its writer masks it)", () => {
    expect(terminalText("GET /v1/events")).toBe("GET /v1/events");
  });
});

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { maskText, maskValue } from "../../src/domain/masking.js";

/** A run of `n` digits where single spaces or hyphens may separate them. */
const digitRun = (min: number, max: number) =>
  fc
    .array(fc.tuple(fc.integer({ min: 0, max: 9 }), fc.constantFrom("", "", "", " ", "-")), { minLength: min, maxLength: max })
    .map((parts) => parts.map(([d, sep], i) => (i === parts.length - 1 ? String(d) : `${d}${sep}`)).join(""));

const digitsOf = (s: string) => s.replace(/\D/g, "");

/** Text with no digits at all around a run: letters, punctuation, spaces. */
const filler = fc.string({ unit: fc.constantFrom(..."abcXYZ .,:;!?_/()éß€"), maxLength: 12 });

/** The longest run of digits joined by at most single spaces/hyphens. */
function longestRun(text: string): number {
  return Math.max(0, ...(text.match(/\d(?:[ -]?\d)*/g) ?? []).map((run) => digitsOf(run).length));
}

describe("masking (properties)", () => {
  it("lets no run of 13 or more digits survive, however the text is built", () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(filler, digitRun(1, 25)), { maxLength: 8 }), (parts) => {
        const masked = maskText(parts.join(""));
        expect(longestRun(masked)).toBeLessThan(13);
      }),
    );
  });

  it("keeps exactly the last 4 digits of a 13–19 digit run, and its separators", () => {
    fc.assert(
      fc.property(filler, digitRun(13, 19), filler, (before, run, after) => {
        fc.pre(!/[\d]$/.test(before) && !/^[\d]/.test(after));
        fc.pre(!/[ -]$/.test(before) && !/^[ -]/.test(after));
        const masked = maskText(`${before}${run}${after}`);
        const maskedRun = masked.slice(before.length, masked.length - after.length);
        expect(digitsOf(maskedRun)).toBe(digitsOf(run).slice(-4));
        expect(maskedRun.replace(/[\d*]/g, "")).toBe(run.replace(/\d/g, ""));
        expect(maskedRun.length).toBe(run.length);
      }),
    );
  });

  it("leaves text without a 13-digit run untouched", () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(filler, digitRun(1, 12)), { maxLength: 6 }), (parts) => {
        const text = parts.join(" x ");
        fc.pre(longestRun(text) < 13);
        expect(maskText(text)).toBe(text);
      }),
    );
  });

  it("drops every cvv-like field and masks every PAN at any depth of a JSON value", () => {
    const pan = digitRun(13, 19);
    const leaf = fc.oneof(fc.string(), fc.integer(), pan);
    const tree = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: "small" },
        leaf,
        fc.array(tie("node"), { maxLength: 3 }),
        fc.dictionary(fc.constantFrom("a", "note", "cvv", "CVC", "security_code", "card", "number", "pan", "card_number"), tie("node"), { maxKeys: 4 }),
      ),
    })).node;
    fc.assert(
      fc.property(tree, (value) => {
        const text = JSON.stringify(maskValue(value));
        expect(text).not.toMatch(/"(cvv|cvc|security_code)"/i);
        expect(longestRun(text.replace(/"[^"]*":/g, ""))).toBeLessThan(13);
      }),
    );
  });
});

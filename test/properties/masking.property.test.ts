import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createIds, type IdPrefix } from "../../src/domain/ids.js";
import { maskText, maskValue } from "../../src/domain/masking.js";
import { normalisedForScan } from "../helpers/pan-forms.js";

/** A run of `n` digits where single spaces or hyphens may separate them. */
const digitRun = (min: number, max: number) =>
  fc
    .array(fc.tuple(fc.integer({ min: 0, max: 9 }), fc.constantFrom("", "", "", " ", "-")), { minLength: min, maxLength: max })
    .map((parts) => parts.map(([d, sep], i) => (i === parts.length - 1 ? String(d) : `${d}${sep}`)).join(""));

const digitsOf = (s: string) => s.replace(/\D/g, "");

/**
 * Text with no digits at all around a run: letters, punctuation, spaces. It never ends with a
 * letter: digits glued to letters on both sides are part of a word, not a card number
 * (test/domain/masking.test.ts has those cases); glued on the right only, they still are one.
 */
const filler = fc.string({ unit: fc.constantFrom(..."abcXYZ .,:;!?_/()éß€"), maxLength: 12 }).map((text) => (/\p{L}$/u.test(text) ? `${text}.` : text));

/** The longest run of ASCII digits joined by at most 3 spaces, tabs, line feeds, hyphens or plus signs in a row. */
function longestRun(text: string): number {
  return Math.max(0, ...(text.match(/\d(?:[ \t\n+-]{0,3}\d)*/g) ?? []).map((run) => digitsOf(run).length));
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

/** A Luhn-valid card number of 13 to 19 ASCII digits. */
const luhnPan = fc
  .integer({ min: 13, max: 19 })
  .chain((length) => fc.array(fc.integer({ min: 0, max: 9 }), { minLength: length - 1, maxLength: length - 1 }))
  .map((body) => {
    let sum = 0;
    body.forEach((digit, i) => {
      // Counted from the right with the check digit at position 0: body's last digit is doubled.
      let d = (body.length - 1 - i) % 2 === 0 ? digit * 2 : digit;
      if (d > 9) d -= 9;
      sum += d;
    });
    return `${body.join("")}${(10 - (sum % 10)) % 10}`;
  });

/** Zeros of the digit scripts generated: ASCII, full-width, Arabic-Indic, Eastern Arabic-Indic, Devanagari, Bengali, mathematical bold. */
const ZEROS = [0x30, 0xff10, 0x660, 0x6f0, 0x966, 0x9e6, 0x1d7ce];

const percentEncoded = (text: string) => [...new TextEncoder().encode(text)].map((b) => `%${b.toString(16).toUpperCase().padStart(2, "0")}`).join("");

/** One digit written in any script, in clear or percent-encoded. */
const writtenDigit = (digit: number) =>
  fc.tuple(fc.constantFrom(...ZEROS), fc.boolean()).map(([zero, encoded]) => {
    const char = String.fromCodePoint(zero + digit);
    return encoded ? percentEncoded(char) : char;
  });

/** Separators between two digits: at most 3 visible ones (whitespace, dashes, "+", %20), any number of invisible ones and marks. */
const VISIBLE = [" ", "\t", "\u00a0", "\u202f", "\u3000", "-", "\u2013", "\u2014", "\u2212", "+", "%20", "%C2%A0", "\n"];
const INVISIBLE = ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad", "%E2%80%8B", "%C2%AD", "\ufe0f\u20e3"];
const gap = fc.oneof(
  fc.constant(""),
  fc
    .tuple(fc.array(fc.constantFrom(...VISIBLE), { maxLength: 3 }), fc.array(fc.constantFrom(...INVISIBLE), { maxLength: 3 }))
    .chain(([visible, invisible]) => fc.shuffledSubarray([...visible, ...invisible], { minLength: visible.length + invisible.length }))
    .map((parts) => parts.join("")),
);

/** A Luhn-valid PAN written digit by digit in any of those forms. */
const disguisedPan = luhnPan.chain((pan) =>
  fc.tuple(...[...pan].map((d, i) => fc.tuple(writtenDigit(Number(d)), i === pan.length - 1 ? fc.constant("") : gap))).map((parts) => ({
    pan,
    written: parts.map(([digit, after]) => digit + after).join(""),
  })),
);

describe("masking PANs in any form (properties)", () => {
  it("keeps only the last 4 digits of a PAN written in any script, separators and encoding, inside text", () => {
    fc.assert(
      fc.property(filler, disguisedPan, filler, (before, { pan, written }, after) => {
        const masked = maskText(`${before}${written}${after}`);
        expect(normalisedForScan(masked).replace(/\D/g, "")).toBe(pan.slice(-4));
        expect(normalisedForScan(masked)).not.toContain(pan.slice(0, -4));
      }),
      { numRuns: 500 },
    );
  });

  it("lets no 5 digits in a row survive normalising, however many disguised PANs the text holds", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            filler,
            disguisedPan.map((p) => p.written),
          ),
          { minLength: 1, maxLength: 6 },
        ),
        (parts) => {
          expect(normalisedForScan(maskText(parts.join("")))).not.toMatch(/\d{5}/);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("masks a disguised PAN in a card.number field and in any string of a JSON value", () => {
    fc.assert(
      fc.property(disguisedPan, disguisedPan, ({ written: number }, { written: note, pan }) => {
        const masked = maskValue({ card: { number }, data: [{ note }] }) as { card: { number: string }; data: { note: string }[] };
        expect(normalisedForScan(masked.card.number).replace(/\D/g, "")).toHaveLength(4);
        expect(normalisedForScan(masked.data[0]!.note).replace(/\D/g, "")).toBe(pan.slice(-4));
      }),
      { numRuns: 200 },
    );
  });

  // A 10-digit reference written right before a date ("PAY-0123456789 2026-01-31") reads as 18 grouped
  // digits and is masked, as it was before separators widened: it cannot be told from a PAN. Here a
  // reference is followed by a word.
  it("never changes ids, ISO timestamps or references, however they are separated", () => {
    const prefixes: IdPrefix[] = ["pi", "po", "evt", "req", "we", "co", "job", "del"];
    const ids = createIds();
    const token = fc.oneof(
      fc.constantFrom(...prefixes).map((prefix) => ids.newId(prefix)),
      fc.date({ min: new Date(0), max: new Date(4102444800000), noInvalidDate: true }).map((date) => date.toISOString()),
      fc.integer({ min: 0, max: 9_999_999_999 }).map((n) => `PAY-${String(n).padStart(10, "0")} paid`),
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(token, fc.constantFrom(" ", "  ", "\t", " - ", "\u200b", "%20", "+", "\n")), { maxLength: 8 }), (parts) => {
        const text = parts.map(([t, sep]) => t + sep).join("");
        expect(maskText(text)).toBe(text);
      }),
      { numRuns: 300 },
    );
  });
});

/**
 * Finds card numbers (docs/guarantees.md) in text however they were written: digits of any
 * script, digit groups split by separators of any kind, percent-encoded. The text
 * itself is never rewritten here: the scan reads a normalised *view* of it and
 * reports where, in the original text, each digit of a card number sits.
 */
import { MIN_CARD_DIGITS } from "./card.js";
import { ID_PREFIXES } from "./ids.js";

/** Where one digit (or masking star) of the view sits in the original text: [start, end). */
export interface Spot {
  start: number;
  end: number;
}

/** A run of digits, and of masking stars when asked for, joined only by separators. */
export interface DigitRun {
  /** The digits of the run, in order. */
  digits: Spot[];
  /** Masking stars inside the run (only counted when the scan is asked to). */
  stars: number;
}

/**
 * Visible separators allowed in a row between two digits: a double space and
 * " - " join digit groups; wider gaps are table columns or unrelated numbers.
 */
const MAX_VISIBLE_GAP = 3;

/** How many times percent-decoding is applied, so that a double-encoded "%2534" still reads as "4". */
const PERCENT_ROUNDS = 3;

/** One code point of the view and the span of the original text it stands for. */
interface Unit {
  cp: number;
  start: number;
  end: number;
}

const DIGIT = 0;
const STAR = 1;
/** Whitespace of any kind, dashes of any kind, the minus sign and "+" (a space in a query string). */
const VISIBLE_SEPARATOR = 2;
/** Zero-width and other invisible format characters (U+200B, U+2060, U+FEFF, the soft hyphen…) and combining marks. */
const INVISIBLE_SEPARATOR = 3;
const OTHER = 4;

const DIGIT_VALUE = /^\p{Nd}$/u;
const OTHER_NUMBER = /^\p{No}$/u;
/** Invisible format characters, and marks that only decorate the digit before them (the keycap in "4️⃣"). */
const FORMAT = /^[\p{Cf}\p{M}]$/u;
const DASH_OR_PLUS = /^[\p{Pd}\u2212\uFF0B]$/u;
const SPACE = /^\s$/u;

/** Kind of each non-ASCII code point met so far, and the digit value of the digits: classifying is the slow part. */
const nonAsciiKinds = new Map<number, { kind: number; value: number }>();

/**
 * The value of a Unicode decimal digit: Unicode encodes them only in whole
 * contiguous ranges of 0–9, so the distance to the start of its range, mod 10.
 */
function decimalValue(cp: number): number {
  let first = cp;
  while (first > 0 && DIGIT_VALUE.test(String.fromCodePoint(first - 1))) first--;
  return (cp - first) % 10;
}

function classifyNonAscii(cp: number): { kind: number; value: number } {
  const known = nonAsciiKinds.get(cp);
  if (known) return known;
  const char = String.fromCodePoint(cp);
  let found = { kind: OTHER, value: -1 };
  if (DIGIT_VALUE.test(char)) found = { kind: DIGIT, value: decimalValue(cp) };
  else if (FORMAT.test(char)) found = { kind: INVISIBLE_SEPARATOR, value: -1 };
  else if (SPACE.test(char) || DASH_OR_PLUS.test(char)) found = { kind: VISIBLE_SEPARATOR, value: -1 };
  else if (OTHER_NUMBER.test(char)) {
    // Superscript and circled digits (¹, ①) read as the digit NFKC makes of them.
    const compat = char.normalize("NFKC");
    if (compat.length === 1 && compat >= "0" && compat <= "9") found = { kind: DIGIT, value: compat.charCodeAt(0) - 48 };
  }
  nonAsciiKinds.set(cp, found);
  return found;
}

function kindOf(cp: number, countStars: boolean): number {
  if (cp >= 48 && cp <= 57) return DIGIT;
  if (cp < 0x80) {
    if (cp === 32 || (cp >= 9 && cp <= 13) || cp === 45 || cp === 43) return VISIBLE_SEPARATOR;
    if (cp === 42 && countStars) return STAR;
    return OTHER;
  }
  return classifyNonAscii(cp).kind;
}

function unitsOf(text: string): Unit[] {
  const units: Unit[] = [];
  for (let i = 0; i < text.length;) {
    const cp = text.codePointAt(i)!;
    const width = cp > 0xffff ? 2 : 1;
    units.push({ cp, start: i, end: i + width });
    i += width;
  }
  return units;
}

function hexValue(cp: number | undefined): number {
  if (cp === undefined) return -1;
  if (cp >= 48 && cp <= 57) return cp - 48;
  if (cp >= 65 && cp <= 70) return cp - 55;
  if (cp >= 97 && cp <= 102) return cp - 87;
  return -1;
}

/** The byte a "%XX" starting at units[i] encodes, or -1. */
function percentByte(units: readonly Unit[], i: number): number {
  if (units[i]?.cp !== 37) return -1;
  const high = hexValue(units[i + 1]?.cp);
  const low = hexValue(units[i + 2]?.cp);
  return high < 0 || low < 0 ? -1 : high * 16 + low;
}

/** How many bytes a UTF-8 sequence starting with `lead` has (0: not a lead byte). */
function utf8Length(lead: number): number {
  if (lead < 0x80) return 1;
  if (lead >= 0xc2 && lead <= 0xdf) return 2;
  if (lead >= 0xe0 && lead <= 0xef) return 3;
  if (lead >= 0xf0 && lead <= 0xf4) return 4;
  return 0;
}

/**
 * One round of percent-decoding over the view: each "%XX" sequence that forms a
 * UTF-8 character becomes that character, spanning the original text of all its
 * bytes. Undefined when the view holds no "%XX" at all.
 */
function percentDecoded(units: readonly Unit[]): Unit[] | undefined {
  let out: Unit[] | undefined;
  for (let i = 0; i < units.length;) {
    const lead = percentByte(units, i);
    if (lead < 0) {
      out?.push(units[i]!);
      i++;
      continue;
    }
    out ??= units.slice(0, i);
    const length = utf8Length(lead);
    let encoded = "";
    for (let b = 0; b < length; b++) {
      const byte = percentByte(units, i + 3 * b);
      if (byte < 0) break;
      encoded += `%${byte.toString(16).padStart(2, "0")}`;
    }
    let cp = 0xfffd;
    let consumed = 3;
    if (length > 0 && encoded.length === 3 * length) {
      try {
        cp = decodeURIComponent(encoded).codePointAt(0)!;
        consumed = 3 * length;
      } catch {
        // Not valid UTF-8: the byte stands for nothing a card number is made of.
      }
    }
    out.push({ cp, start: units[i]!.start, end: units[i + consumed - 1]!.end });
    i += consumed;
  }
  return out;
}

/** The normalised view of `text`: its code points, percent-decoded (repeatedly) when it holds "%XX". */
function viewOf(text: string): Unit[] {
  let units = unitsOf(text);
  if (!text.includes("%")) return units;
  for (let round = 0; round < PERCENT_ROUNDS; round++) {
    const decoded = percentDecoded(units);
    if (!decoded) break;
    units = decoded;
  }
  return units;
}

/**
 * Whether `text` can hold a run of `min` digits at all: each digit needs an ASCII
 * digit, a non-ASCII character or a "%" of its own. Text with fewer of them is settled
 * here, without looking at how they are spaced or building a view.
 */
function mayHoldRun(text: string, min: number, countStars: boolean): boolean {
  let candidates = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if ((code >= 48 && code <= 57) || code >= 0x80 || code === 37 || (countStars && code === 42)) {
      if (++candidates >= min) return true;
    }
  }
  return false;
}

/**
 * The longest run in plain ASCII text without "%", by the same rules as digitRuns
 * but in one pass with nothing built; -1 when the text needs the full view (it holds
 * "%" or a non-ASCII character). Most text is settled here.
 */
function longestAsciiRun(text: string, countStars: boolean): number {
  let longest = 0;
  let run = 0;
  let gap = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0x80 || code === 37) return -1;
    const kind = kindOf(code, countStars);
    if (kind === DIGIT || kind === STAR) {
      run++;
      gap = 0;
      if (run > longest) longest = run;
    } else if (kind === VISIBLE_SEPARATOR && run > 0 && ++gap <= MAX_VISIBLE_GAP) {
      // still inside the run
    } else {
      run = 0;
      gap = 0;
    }
  }
  return longest;
}

const LETTER = /^\p{L}$/u;

function isLetter(cp: number | undefined): boolean {
  if (cp === undefined) return false;
  if (cp < 0x80) return (cp >= 65 && cp <= 90) || (cp >= 97 && cp <= 122);
  return LETTER.test(String.fromCodePoint(cp));
}

/** A paysim id (docs/guarantees.md): a prefix, "_", 24 base62 characters, standing alone as a word. */
const PAYSIM_ID = new RegExp(`(?<![0-9A-Za-z_])(?:${ID_PREFIXES.join("|")})_[0-9A-Za-z]{24}(?![0-9A-Za-z_])`, "g");

/** Where paysim ids sit in `text`: digits inside one are part of the id, never a card number. */
function idSpans(text: string): Spot[] {
  if (!text.includes("_")) return [];
  return Array.from(text.matchAll(PAYSIM_ID), (found) => ({ start: found.index, end: found.index + found[0].length }));
}

/**
 * Every run of digits in `text` joined only by separators, after normalising a
 * view of it: Unicode digits read as digits, any whitespace, dash, "+", invisible
 * format character or combining mark (at most 3 visible ones in a row) joins digit groups,
 * and "%XX" is decoded. With `countStars`, masking stars count as run members
 * (to recognise a card number that was already masked).
 * Only runs of at least `min` digits-and-stars are returned.
 *
 * A run is part of a word, not a number, and is not returned when it is written
 * without any separator and glued to letters on both sides ("ab1234567890123cd",
 * a hash or token); the digits of a paysim id ("pi_" and 24 base62 characters) are
 * never part of a run, so an id ending in digits next to a date is not a card number: a card
 * number is written on its own or next to punctuation and spaces.
 */
export function digitRuns(text: string, options: { min?: number; countStars?: boolean } = {}): DigitRun[] {
  const min = options.min ?? MIN_CARD_DIGITS;
  const countStars = options.countStars ?? false;
  // Most text (a path, an id, a message) holds fewer digits than a card number: counted first.
  if (!mayHoldRun(text, min, countStars)) return [];
  const ascii = longestAsciiRun(text, countStars);
  if (ascii >= 0 && ascii < min) return [];
  const ids = idSpans(text);
  // The next id at or after the character read: its characters end any run rather than join one.
  let nextId = 0;
  const runs: DigitRun[] = [];
  let run: DigitRun = { digits: [], stars: 0 };
  let gap = 0;
  // Whether the run so far has no separator inside, and began right after a letter.
  let unbroken = true;
  let afterLetter = false;
  let previous: number | undefined;
  const close = (beforeLetter: boolean) => {
    const partOfWord = unbroken && afterLetter && beforeLetter;
    if (run.digits.length + run.stars >= min && !partOfWord) runs.push(run);
    run = { digits: [], stars: 0 };
    gap = 0;
    unbroken = true;
  };
  for (const unit of viewOf(text)) {
    while (nextId < ids.length && ids[nextId]!.end <= unit.start) nextId++;
    if (nextId < ids.length && ids[nextId]!.start <= unit.start) {
      // Inside a paysim id: its digits are the id's, so a run of digits after it ("pi_…12345  2026-11-27")
      // cannot borrow them to reach a card number's length.
      if (run.digits.length + run.stars > 0) close(false);
      previous = unit.cp;
      continue;
    }
    const kind = kindOf(unit.cp, countStars);
    if (kind === DIGIT || kind === STAR) {
      if (run.digits.length + run.stars === 0) {
        afterLetter = isLetter(previous);
        unbroken = true;
      }
      gap = 0;
      if (kind === DIGIT) run.digits.push({ start: unit.start, end: unit.end });
      else run.stars++;
    } else if (kind === VISIBLE_SEPARATOR) {
      unbroken = false;
      if (++gap > MAX_VISIBLE_GAP) close(false);
    } else if (kind === INVISIBLE_SEPARATOR) {
      unbroken = false;
    } else {
      close(unbroken && isLetter(unit.cp));
    }
    previous = unit.cp;
  }
  close(false);
  return runs;
}

/**
 * Every digit of `text` in any script or encoding (see digitRuns), wherever it sits.
 *
 * @example
 * allDigits("４２ x %34") // spots of "４", "２" and "%34"
 */
export function allDigits(text: string): Spot[] {
  if (!mayHoldRun(text, 1, false)) return [];
  const spots: Spot[] = [];
  for (const unit of viewOf(text)) if (kindOf(unit.cp, false) === DIGIT) spots.push({ start: unit.start, end: unit.end });
  return spots;
}

/**
 * Card numbers written the ways that once escaped masking (issue 17 item 7), and
 * a reader's normalisation to look for them afterwards. The normalisation is the
 * test's own, independent of src/domain: percent-decoding, JSON escapes, digits
 * of every script as ASCII, every separator removed.
 */

/** `prefix` (any number of digits) completed with its Luhn check digit. */
export function luhnComplete(prefix: string): string {
  let sum = 0;
  for (let i = 0; i < prefix.length; i++) {
    // The check digit will sit at position 0 from the right: the prefix's last digit is doubled.
    let digit = Number(prefix[prefix.length - 1 - i]);
    if (i % 2 === 0) digit *= 2;
    if (digit > 9) digit -= 9;
    sum += digit;
  }
  return `${prefix}${(10 - (sum % 10)) % 10}`;
}

const inScript = (zero: number) => (digits: string) => [...digits].map((d) => String.fromCodePoint(zero + Number(d))).join("");
const groups = (pan: string) => pan.match(/.{1,4}/g)!;
const percent = (text: string) => [...new TextEncoder().encode(text)].map((b) => `%${b.toString(16).toUpperCase().padStart(2, "0")}`).join("");

/** Each disguise writes a PAN one way that a plain `\d` regex does not see as one run. */
export const DISGUISES: readonly (readonly [name: string, write: (pan: string) => string])[] = [
  ["full-width digits", (pan) => groups(inScript(0xff10)(pan)).join(" ")],
  ["Arabic-Indic digits", (pan) => inScript(0x660)(pan)],
  ["Devanagari digits with no-break spaces", (pan) => groups(inScript(0x966)(pan)).join("\u00a0")],
  ["zero-width spaces", (pan) => groups(pan).join("\u200b")],
  ["soft hyphens", (pan) => groups(pan).join("\u00ad")],
  ["no-break spaces", (pan) => groups(pan).join("\u00a0")],
  ["tabs", (pan) => groups(pan).join("\t")],
  ["double spaces", (pan) => groups(pan).join("  ")],
  ["em dashes", (pan) => groups(pan).join("\u2014")],
  ["percent-encoded spaces", (pan) => groups(pan).join("%20")],
  ["percent-encoded digits", (pan) => percent(pan)],
  ["percent-encoded full-width digits", (pan) => percent(inScript(0xff10)(pan))],
  ["plus signs", (pan) => groups(pan).join("+")],
  ["keycap digits", (pan) => [...pan].map((d) => `${d}\ufe0f\u20e3`).join("")],
  [
    "mixed scripts, zero-width joiners and a tab",
    (pan) => `${inScript(0xff10)(pan.slice(0, 4))}\u200d${inScript(0x6f0)(pan.slice(4, 8))}\t${pan.slice(8, 12)}\u2060${pan.slice(12)}`,
  ],
];

/** One distinct Luhn-valid 16-digit PAN per disguise, so that a leak names its form. */
export const DISGUISED_PANS = DISGUISES.map(([name, write], i) => {
  const pan = luhnComplete(`49${String(i).padStart(2, "0")}${"58319460273"}`);
  return { name, pan, written: write(pan) };
});

/** Zero code points of the Unicode decimal digit ranges (each holds 0–9 in order). */
const DIGIT_ZEROS: number[] = (() => {
  const zeros: number[] = [];
  for (let cp = 0x80; cp < 0x20000; cp++) if (/\p{Nd}/u.test(String.fromCodePoint(cp)) && !/\p{Nd}/u.test(String.fromCodePoint(cp - 1))) zeros.push(cp);
  return zeros;
})();

function asciiDigit(char: string): string {
  const cp = char.codePointAt(0)!;
  if (cp < 0x80 || !/\p{Nd}/u.test(char)) return char;
  const zero = DIGIT_ZEROS.filter((z) => z <= cp).at(-1)!;
  return String((cp - zero) % 10);
}

/**
 * `text` as a reader would take it: percent-decoded (three rounds), JSON escapes
 * undone, digits of any script as ASCII, every whitespace, dash, "+",
 * invisible character and combining mark removed. Whatever digits are left in a row were in a row.
 */
export function normalisedForScan(text: string): string {
  let decoded = text;
  for (let round = 0; round < 3; round++) {
    decoded = decoded.replace(/(%[0-9A-Fa-f]{2})+/g, (encoded) => {
      try {
        return decodeURIComponent(encoded);
      } catch {
        return encoded;
      }
    });
  }
  decoded = decoded.replace(/\\u([0-9a-fA-F]{4})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))).replace(/\\[tnrbf]/g, " ");
  return [...decoded]
    .map(asciiDigit)
    .join("")
    .replace(/[\s\p{Pd}\p{Cf}\p{M}+\u2212]/gu, "");
}

/** The PANs of `pans` whose masked part (all but the last 4 digits) can be read in `text` once normalised. */
export function leakedPans(text: string, pans: readonly string[]): string[] {
  const readable = normalisedForScan(text);
  return pans.filter((pan) => readable.includes(pan.slice(0, -4)));
}

/**
 * Card-data masking (SPEC §9). Applied where data enters (request bodies, the
 * checkout form, ingested data) and again where it leaves (logs, webhook bodies).
 */

/** A run of digits where single spaces or hyphens may separate the digits. */
const DIGIT_RUN = /\d(?:[ -]?\d)*/g;
const MIN_PAN_DIGITS = 13;
const KEPT_DIGITS = 4;

const DROPPED_FIELDS = new Set(["cvv", "cvc", "security_code"]);
const CARD_NUMBER_FIELDS = new Set(["pan", "card_number"]);

/** Whether a field of this name (cvv, cvc, security_code, any case) is dropped by masking. */
export function isDroppedField(name: string): boolean {
  return DROPPED_FIELDS.has(name.toLowerCase());
}

/**
 * The most digits in one run of `text`, digits joined by at most one space or
 * hyphen (the runs DIGIT_RUN finds), in one pass without a regex.
 */
function longestDigitRun(text: string): number {
  let longest = 0;
  let run = 0;
  let afterSeparator = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 48 && code <= 57) {
      run++;
      afterSeparator = false;
      if (run > longest) longest = run;
    } else if ((code === 32 || code === 45) && run > 0 && !afterSeparator) {
      afterSeparator = true;
    } else {
      run = 0;
      afterSeparator = false;
    }
  }
  return longest;
}

/** Masks every digit of `run` but the last four, keeping its separators. */
function maskDigits(run: string): string {
  let digitsLeft = run.replace(/\D/g, "").length;
  let out = "";
  for (const ch of run) {
    if (ch >= "0" && ch <= "9") {
      out += digitsLeft > KEPT_DIGITS ? "*" : ch;
      digitsLeft--;
    } else {
      out += ch;
    }
  }
  return out;
}

/**
 * Masks every run of 13 or more digits (optionally split by single spaces or
 * hyphens) down to its last four digits; other text is untouched.
 *
 * @example
 * maskText("card 4242 4242 4242 4242") // "card **** **** **** 4242"
 */
export function maskText(text: string): string {
  // Most text holds no run of 13 digits, timestamps and log lines included: nothing to mask, no regex to run.
  if (longestDigitRun(text) < MIN_PAN_DIGITS) return text;
  return text.replace(DIGIT_RUN, (run) => {
    const digits = run.replace(/\D/g, "").length;
    return digits >= MIN_PAN_DIGITS ? maskDigits(run) : run;
  });
}

/** Masks a value known to be a card number, whatever its length. */
function maskCardNumber(value: unknown): unknown {
  if (typeof value === "number") return maskDigits(String(value));
  if (typeof value === "string") return maskDigits(value);
  return maskValue(value);
}

/**
 * Deep-masks a JSON value: strings through maskText, card-number fields masked,
 * CVV-like fields dropped, and integers long enough to be a PAN turned into masked strings.
 *
 * @example
 * maskValue({ card: { number: "4242424242424242", cvc: "123" } }) // { card: { number: "************4242" } }
 */
export function maskValue(value: unknown, insideCard = false): unknown {
  if (typeof value === "string") return maskText(value);
  if (typeof value === "number") {
    // An integer of at most 12 digits (every amount) cannot hold a PAN: no text to build.
    if (Number.isInteger(value) && Math.abs(value) < 1e12) return value;
    const text = String(value);
    const masked = maskText(text);
    return masked === text ? value : masked;
  }
  if (Array.isArray(value)) return value.map((item) => maskValue(item));
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [rawKey, item] of Object.entries(value)) {
      const key = maskText(rawKey);
      const lower = key.toLowerCase();
      if (DROPPED_FIELDS.has(lower)) continue;
      if (CARD_NUMBER_FIELDS.has(lower) || (insideCard && lower === "number")) {
        setOwn(out, key, maskCardNumber(item));
      } else {
        setOwn(out, key, maskValue(item, lower === "card"));
      }
    }
    return out;
  }
  return value;
}

/**
 * Sets `key` as an own field of `target`. Assigning to "__proto__" would instead
 * replace the object's prototype, letting a body smuggle fields that every later
 * read (validation included) finds but no own-key check sees.
 */
function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__") Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

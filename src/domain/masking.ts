/**
 * Card-data masking (docs/guarantees.md). Applied where data enters (request bodies, the
 * checkout form, ingested data) and again where it leaves (logs, webhook bodies).
 */
import { allDigits, digitRuns, type Spot } from "./card-number-scan.js";
import { isCredential } from "./secret-keys.js";

const KEPT_DIGITS = 4;

const DROPPED_FIELDS = new Set(["cvv", "cvc", "security_code"]);
const CARD_NUMBER_FIELDS = new Set(["pan", "card_number"]);

/** Whether a field of this name (cvv, cvc, security_code, any case) is dropped by masking. */
export function isDroppedField(name: string): boolean {
  return DROPPED_FIELDS.has(name.toLowerCase());
}

/** `text` with each of `spots` (sorted, not overlapping) written as one `*`. */
function starred(text: string, spots: readonly Spot[]): string {
  if (spots.length === 0) return text;
  let out = "";
  let from = 0;
  for (const spot of spots) {
    out += `${text.slice(from, spot.start)}*`;
    from = spot.end;
  }
  return out + text.slice(from);
}

/**
 * Masks every card number in `text` down to its last four digits, however it was
 * written (see digitRuns: 13 or more digits of any script, joined by separators
 * of any kind, percent-encoded or not). Each masked digit becomes one `*`; the
 * separators and the rest of the text are kept as they were.
 *
 * @example
 * maskText("card 4242 4242 4242 4242") // "card **** **** **** 4242"
 * maskText("/hook/4242%204242%204242%204242") // "/hook/****%20****%20****%204242"
 */
export function maskText(text: string): string {
  const runs = digitRuns(text);
  if (runs.length === 0) return text;
  return starred(
    text,
    runs.flatMap((run) => run.digits.slice(0, -KEPT_DIGITS)),
  );
}

/**
 * maskText, but each of `credentials` that is one by its own format (a secret key, a signing secret:
 * isCredential) is kept exactly as it is wherever `text` holds it: a key its owner chose is no card
 * number, and masked it would be another key (docs/guarantees.md). Every other part of `text` is
 * masked as maskText masks it. For a line that hands credentials back to their owner (`paysim env`,
 * the started line); a log line never holds one.
 *
 * @example
 * maskTextKeeping("KEY=sk_test_ci_1732212345678901234 card 4242424242424242", ["sk_test_ci_1732212345678901234"])
 * // "KEY=sk_test_ci_1732212345678901234 card ************4242"
 */
export function maskTextKeeping(text: string, credentials: readonly string[]): string {
  if (credentials.length === 0) return maskText(text);
  // Longest first: a key that holds a shorter one is kept whole.
  const kept = [...new Set(credentials.filter(isCredential))].sort((a, b) => b.length - a.length);
  if (kept.length === 0) return maskText(text);
  let out = "";
  let from = 0;
  for (let at = 0; at < text.length;) {
    const credential = kept.find((candidate) => text.startsWith(candidate, at));
    if (credential === undefined) {
      at++;
      continue;
    }
    out += maskText(text.slice(from, at)) + credential;
    at += credential.length;
    from = at;
  }
  return out + maskText(text.slice(from));
}

/**
 * Whether `text` holds a card number, in clear (any form maskText finds) or
 * already masked (stars standing for its digits, as data reads once masked on entry).
 *
 * @example
 * holdsCardNumber("http://x/hook/****%20****%20****%204242") // true
 * holdsCardNumber("http://localhost:3000/webhooks") // false
 */
export function holdsCardNumber(text: string): boolean {
  return digitRuns(text, { countStars: true }).some((run) => run.digits.length > 0);
}

/** Masks every digit of a value known to be a card number but the last four, whatever its length. */
function maskDigits(text: string): string {
  return starred(text, allDigits(text).slice(0, -KEPT_DIGITS));
}

/** Masks a value known to be a card number, whatever its length: a number in such a field is one too. */
function maskCardNumber(value: unknown, number: (value: number) => unknown): unknown {
  if (typeof value === "number") return maskDigits(String(value));
  if (typeof value === "string") return maskDigits(value);
  return masked(value, false, number);
}

/**
 * Masks a value received from outside, the one masking step every way in goes through
 * (docs/guarantees.md "No card number at rest"): every string and field name through
 * maskText, card-number fields masked whatever their length, CVV-like fields dropped.
 * A number stays the number it is, for validation to check as one: a probability
 * 0.30000000000000004 or a seed 1000000000000 is no text to mask. Numbers that free-form
 * data keeps (ingested event data) are masked where that data is recorded, by maskValue.
 *
 * @example
 * maskInput({ path: "/v1/payment_intents/4242424242424242", probability: 0.30000000000000004 })
 * // { path: "/v1/payment_intents/************4242", probability: 0.30000000000000004 }
 */
export function maskInput(value: unknown): unknown {
  return masked(value, false, keepNumber);
}

/**
 * Deep-masks a JSON value that paysim records or sends whatever it holds (an event's data):
 * as maskInput, and besides numbers long enough to hold a PAN turned into masked strings.
 *
 * @example
 * maskValue({ card: { number: "4242424242424242", cvc: "123" } }) // { card: { number: "************4242" } }
 */
export function maskValue(value: unknown): unknown {
  return masked(value, false, maskNumber);
}

const keepNumber = (value: number): unknown => value;

function maskNumber(value: number): unknown {
  // An integer of at most 12 digits (every amount) cannot hold a PAN: no text to build.
  if (Number.isInteger(value) && Math.abs(value) < 1e12) return value;
  const text = String(value);
  const maskedText = maskText(text);
  return maskedText === text ? value : maskedText;
}

function masked(value: unknown, insideCard: boolean, number: (value: number) => unknown): unknown {
  if (typeof value === "string") return maskText(value);
  if (typeof value === "number") return number(value);
  if (Array.isArray(value)) return value.map((item) => masked(item, false, number));
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [rawKey, item] of Object.entries(value)) {
      const key = maskText(rawKey);
      const lower = key.toLowerCase();
      if (DROPPED_FIELDS.has(lower)) continue;
      if (CARD_NUMBER_FIELDS.has(lower) || (insideCard && lower === "number")) {
        setOwn(out, key, maskCardNumber(item, number));
      } else {
        setOwn(out, key, masked(item, lower === "card", number));
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

/**
 * The top-level fields of a body that hold a credential its sender chose (`secret_key`,
 * `webhook_secret`), each with the format it must have to be taken as one.
 */
export type CredentialFields = Readonly<Record<string, (value: string) => boolean>>;

/**
 * A request body with card data masked, whichever way it came in (a JSON body, a dashboard form):
 * its strings, never its numbers, which validation then reads as the numbers they are. Masking
 * drops a top-level cvv, but it is still a field no call accepts: its name (never its value) is
 * kept so that validation refuses it instead of silently ignoring it. A field of `credentials`
 * that has its credential's format is kept exactly as sent (docs/guarantees.md): masked, a key
 * with 13 digits in a row would silently become another key. One without that format is masked
 * as any text, and validation refuses it.
 *
 * @example
 * maskRequestBody({ name: "4242424242424242", secret_key: "sk_test_1732212345678901234" }, { secret_key: isSecretKey })
 * // { name: "************4242", secret_key: "sk_test_1732212345678901234" }
 */
export function maskRequestBody(body: Record<string, unknown>, credentials: CredentialFields = {}): Record<string, unknown> {
  const masked = maskInput(body) as Record<string, unknown>;
  for (const key of Object.keys(body)) {
    if (isDroppedField(key)) masked[key] = "[removed]";
    const value = body[key];
    if (typeof value === "string" && Object.hasOwn(credentials, key) && credentials[key]!(value)) masked[key] = value;
  }
  return masked;
}

/**
 * Card checks for the hosted checkout form (docs/api.md): number (Luhn), brand from
 * the number's prefix, expiry, CVC. Pure: the caller passes the clock's "now".
 *
 * The full number only ever lives inside `checkCardForm`: what leaves it is the
 * last four digits and the brand (or field errors that never repeat the number).
 */
import type { CardOutcome, TestCard } from "./test-cards.js";

/** The brands `brandFromNumber` names (a test card's brand is one of them). */
export const CARD_BRANDS = ["visa", "mastercard", "amex", "discover", "unknown"] as const;
export type CardBrand = (typeof CARD_BRANDS)[number];

/** 13–19 digits: the lengths card schemes issue, and exactly what masking (docs/guarantees.md) catches. */
export const MIN_CARD_DIGITS = 13;
export const MAX_CARD_DIGITS = 19;

/** Expiry dates further ahead than this are typing mistakes, not cards. */
const MAX_YEARS_AHEAD = 20;

/**
 * The digits of a typed card number (spaces and hyphens between digits allowed),
 * or undefined when it holds anything else.
 *
 * @example
 * cardDigits("4242 4242-4242 4242") // "4242424242424242"
 */
export function cardDigits(typed: string): string | undefined {
  const compact = typed.trim().replace(/[ -]/g, "");
  return /^\d+$/.test(compact) ? compact : undefined;
}

/**
 * The Luhn (mod 10) check every card number carries in its last digit.
 *
 * @example
 * isLuhnValid("4242424242424242") // true
 */
export function isLuhnValid(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/**
 * The card brand its issuer prefix stands for.
 *
 * @example
 * brandFromNumber("2221000000000009") // "mastercard"
 */
export function brandFromNumber(digits: string): CardBrand {
  const prefix2 = Number(digits.slice(0, 2));
  const prefix4 = Number(digits.slice(0, 4));
  if (digits.startsWith("4")) return "visa";
  if ((prefix2 >= 51 && prefix2 <= 55) || (prefix4 >= 2221 && prefix4 <= 2720)) return "mastercard";
  if (prefix2 === 34 || prefix2 === 37) return "amex";
  if (digits.startsWith("6011") || prefix2 === 65) return "discover";
  return "unknown";
}

export interface Expiry {
  month: number;
  /** Four-digit year. */
  year: number;
}

/**
 * Reads an expiry typed as MM/YY (also "MM / YY", "MMYY", "MM-YY", "MM/YYYY"),
 * or undefined when it is not one.
 *
 * @example
 * parseExpiry("04 / 31") // { month: 4, year: 2031 }
 */
export function parseExpiry(typed: string): Expiry | undefined {
  const match = /^(\d{1,2})\s*[/-]\s*(\d{2}|\d{4})$/.exec(typed.trim()) ?? /^(\d{2})(\d{2})$/.exec(typed.trim());
  if (!match) return undefined;
  const month = Number(match[1]);
  const yearText = match[2]!;
  if (month < 1 || month > 12) return undefined;
  return { month, year: yearText.length === 2 ? 2000 + Number(yearText) : Number(yearText) };
}

/**
 * Whether a card is past its expiry at `nowMs`: a card is valid through the last
 * day of its expiry month (UTC).
 */
export function isExpired(expiry: Expiry, nowMs: number): boolean {
  const now = new Date(nowMs);
  const current = now.getUTCFullYear() * 12 + now.getUTCMonth();
  return expiry.year * 12 + (expiry.month - 1) < current;
}

/** Whether a security code has the 3 or 4 digits card schemes use. */
export function isCvc(typed: string): boolean {
  return /^\d{3,4}$/.test(typed.trim());
}

/**
 * How many digits a brand's security code has: American Express prints 4 on the
 * front of the card, every other scheme 3 on the back.
 *
 * @example
 * cvcLength("amex") // 4
 */
export function cvcLength(brand: string): 3 | 4 {
  return brand === "amex" ? 4 : 3;
}

/** What the checkout form sends, as typed. */
export interface CardForm {
  number: string;
  expiry: string;
  cvc: string;
}

export type CardField = keyof CardForm;
export type CardFieldErrors = Partial<Record<CardField, string>>;

/** A good card comes out reduced to what may be kept: last4, brand and its test outcome. */
export type CardCheck = { ok: true; presented: CardOutcome } | { ok: false; errors: CardFieldErrors };

function numberError(typed: string): string | undefined {
  if (typed.trim() === "") return "Enter your card number.";
  const digits = cardDigits(typed);
  if (digits === undefined) return "A card number has digits only.";
  if (digits.length < MIN_CARD_DIGITS) return "Your card number is incomplete.";
  if (digits.length > MAX_CARD_DIGITS || !isLuhnValid(digits)) return "Your card number is invalid.";
  return undefined;
}

function expiryError(typed: string, nowMs: number): string | undefined {
  if (typed.trim() === "") return "Enter the card's expiry date.";
  const expiry = parseExpiry(typed);
  if (!expiry) return "Enter the expiry date as MM/YY.";
  if (isExpired(expiry, nowMs)) return "Your card has expired.";
  if (expiry.year > new Date(nowMs).getUTCFullYear() + MAX_YEARS_AHEAD) return "Your card's expiry year is invalid.";
  return undefined;
}

/**
 * The CVC's error. Its length depends on the brand, known only once the number
 * is good; until then any 3 or 4 digits pass, so that the form names the number
 * as the thing to fix.
 */
function cvcError(typed: string, brand: string | undefined): string | undefined {
  if (typed.trim() === "") return "Enter the card's security code (CVC).";
  if (!isCvc(typed)) return "The security code is 3 or 4 digits.";
  if (brand === undefined || typed.trim().length === cvcLength(brand)) return undefined;
  return brand === "amex" ? "An American Express card's security code is 4 digits." : "The security code is 3 digits.";
}

/**
 * Checks a typed card and, when it is good, reduces it at once to what may be
 * kept. A test card (fixtures/test-cards.json) behaves as listed; any other
 * Luhn-valid number authorizes with the brand its prefix names. The number and
 * the CVC never leave this function; the errors never repeat them.
 *
 * @example
 * checkCardForm({ number: "4000 0000 0000 0002", expiry: "12/34", cvc: "123" }, Date.now(), cards)
 * // { ok: true, presented: { card: { last4: "0002", brand: "visa" }, failure_reason: "card_declined" } }
 */
export function checkCardForm(form: CardForm, nowMs: number, testCards: readonly TestCard[]): CardCheck {
  const errors: CardFieldErrors = {};
  const number = numberError(form.number);
  const digits = number === undefined ? cardDigits(form.number)! : undefined;
  const testCard = digits === undefined ? undefined : testCards.find((card) => card.number === digits);
  const brand = digits === undefined ? undefined : (testCard?.brand ?? brandFromNumber(digits));
  const expiry = expiryError(form.expiry, nowMs);
  const cvc = cvcError(form.cvc, brand);
  if (number) errors.number = number;
  if (expiry) errors.expiry = expiry;
  if (cvc) errors.cvc = cvc;
  if (digits === undefined || brand === undefined || expiry || cvc) return { ok: false, errors };

  return {
    ok: true,
    presented: {
      card: { last4: digits.slice(-4), brand },
      failure_reason: testCard?.failure_reason ?? null,
    },
  };
}

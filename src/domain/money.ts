/** Amount and currency rules shared by payment intents and payouts (docs/api.md). */

export const MAX_AMOUNT = 999_999_999_999;

/** The upper-case ISO 4217 codes this runtime knows (its ICU data), in order: every one paysim accepts. */
export const CURRENCY_CODES: readonly [string, ...string[]] = Intl.supportedValuesOf("currency").filter((code) => /^[A-Z]{3}$/.test(code)) as [
  string,
  ...string[],
];

const CURRENCIES: ReadonlySet<string> = new Set(CURRENCY_CODES);

/** Whether `code` is an upper-case ISO 4217 code this runtime knows. */
export function isCurrency(code: string): boolean {
  return CURRENCIES.has(code);
}

/** How many minor-unit digits the currency has (EUR 2, JPY 0, KWD 3). */
export function minorDigits(currency: string): number {
  return new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions().maximumFractionDigits ?? 2;
}

/**
 * An amount in minor units formatted for display.
 *
 * @example
 * formatAmount(1050, "EUR", "en") // "€10.50"
 */
export function formatAmount(amount: number, currency: string, locale = "en"): string {
  const digits = minorDigits(currency);
  return new Intl.NumberFormat(locale, { style: "currency", currency }).format(amount / 10 ** digits);
}

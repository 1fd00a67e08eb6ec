/** Amount and currency rules shared by payment intents and payouts (docs/api.md). */

export const MAX_AMOUNT = 999_999_999_999;

const CURRENCIES: ReadonlySet<string> = new Set(Intl.supportedValuesOf("currency"));

/** Whether `code` is an upper-case ISO 4217 code this runtime knows. */
export function isCurrency(code: string): boolean {
  return /^[A-Z]{3}$/.test(code) && CURRENCIES.has(code);
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

/** How paysim's pages (the checkout and the dashboard) name a card: brand and last4, never more. */

const BRAND_NAMES: Record<string, string> = {
  visa: "Visa",
  mastercard: "Mastercard",
  amex: "American Express",
  discover: "Discover",
};

/** "Visa", "American Express"…, or "Card" for a brand paysim does not name. */
export function brandName(brand: string): string {
  return BRAND_NAMES[brand] ?? "Card";
}

/** "Visa •••• 4242" */
export function cardLabel(card: { last4: string; brand: string }): string {
  return `${brandName(card.brand)} •••• ${card.last4}`;
}

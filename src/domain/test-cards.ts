/** A test payment method and the card behind it, as listed in fixtures/test-cards.json. */
export interface TestCard {
  payment_method: string;
  number: string;
  brand: string;
  outcome: "authorized" | "failed";
  failure_reason: string | null;
  description: string;
}

/** Outcome of presenting a card: authorized, or failed with a reason. */
export interface CardOutcome {
  card: { last4: string; brand: string };
  failure_reason: string | null;
}

/** What a test payment method does, or undefined for an unknown one. */
export function outcomeForPaymentMethod(cards: readonly TestCard[], paymentMethod: string): CardOutcome | undefined {
  const card = cards.find((c) => c.payment_method === paymentMethod);
  if (!card) return undefined;
  return { card: { last4: card.number.slice(-4), brand: card.brand }, failure_reason: card.failure_reason };
}

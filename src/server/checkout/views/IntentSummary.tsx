/** @jsxImportSource hono/jsx */
import { formatAmount } from "../../../domain/money.js";
import { PAYMENT_INTENT_CARD, type PaymentIntentRow } from "../../../resources/payment-intents/store.js";

/** What the checkout pages show of a payment intent: display text only, never card data beyond last4. */
export interface IntentView {
  id: string;
  merchantName: string;
  /** The amount formatted for its currency, e.g. "€10.50" or "¥1,000". */
  amountText: string;
  description: string | null;
  reference: string;
  state: string;
  captureMethod: string;
  card: { last4: string; brand: string } | null;
  failureReason: string | null;
}

/** The display model of `row`, paid to `merchantName`. */
export function toIntentView(row: PaymentIntentRow, merchantName: string): IntentView {
  return {
    id: row.id,
    merchantName,
    amountText: formatAmount(row.amount, row.currency),
    description: row.description,
    reference: row.reference,
    state: row.state,
    captureMethod: row.capture_method,
    card: PAYMENT_INTENT_CARD.value(row, {}),
    failureReason: row.failure_reason,
  };
}

const FAILURE_TEXT: Record<string, string> = {
  card_declined: "Your card was declined.",
  insufficient_funds: "Your card has insufficient funds.",
  expired_card: "Your card has expired.",
};

/** A customer-facing sentence for a failure_reason code. */
export function failureText(reason: string | null): string {
  return (reason && FAILURE_TEXT[reason]) ?? "The payment could not be completed.";
}

/** The merchant's initial, name and the test-mode badge. */
export function MerchantHeader({ name }: { name: string }) {
  const initial = Array.from(name.trim())[0]?.toUpperCase() ?? "?";
  return (
    <div class="merchant">
      <span class="avatar" aria-hidden="true">
        {initial}
      </span>
      <span class="merchant-name">{name}</span>
      <span class="badge">Test mode</span>
    </div>
  );
}

/** Description and reference, as a definition list. */
export function IntentFacts({ view, extra = [] }: { view: IntentView; extra?: Array<[string, string]> }) {
  return (
    <dl class="facts">
      {extra.map(([term, value]) => (
        <div>
          <dt>{term}</dt>
          <dd>{value}</dd>
        </div>
      ))}
      <div>
        <dt>Reference</dt>
        <dd class="mono">{view.reference}</dd>
      </div>
    </dl>
  );
}

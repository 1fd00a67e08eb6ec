/** @jsxImportSource hono/jsx */
import type { CardField, CardFieldErrors } from "../../../domain/card.js";
import type { TestCard } from "../../../domain/test-cards.js";
import { brandName } from "../../card-label.js";
import { IntentFacts, MerchantHeader, type IntentView } from "./IntentSummary.js";
import { Layout } from "./Layout.js";

export interface CheckoutPageProps {
  view: IntentView;
  testCards: readonly TestCard[];
  /** The form token both forms carry (checked on every post). */
  token: string;
  nonce: string;
  /** Field errors of a refused submission; the number and CVC are never shown again. */
  errors?: CardFieldErrors | undefined;
  /** The expiry as typed, kept on a refused submission (it is not secret). */
  expiry?: string | undefined;
}

const FIELD_IDS: Record<CardField, string> = { number: "card-number", expiry: "card-expiry", cvc: "card-cvc" };

function LockIcon() {
  return (
    <svg width="16" height="16" viewBox="0 0 16 16" aria-hidden="true" fill="currentColor">
      <path d="M8 1a3.5 3.5 0 0 0-3.5 3.5V6H4a1.5 1.5 0 0 0-1.5 1.5v6A1.5 1.5 0 0 0 4 15h8a1.5 1.5 0 0 0 1.5-1.5v-6A1.5 1.5 0 0 0 12 6h-.5V4.5A3.5 3.5 0 0 0 8 1Zm2 5H6V4.5a2 2 0 1 1 4 0V6Z" />
    </svg>
  );
}

function FieldError({ field, errors }: { field: CardField; errors: CardFieldErrors | undefined }) {
  const message = errors?.[field];
  if (!message) return null;
  return (
    <p class="field-error" id={`${FIELD_IDS[field]}-error`}>
      {message}
    </p>
  );
}

/**
 * aria attributes tying an input to its error; the first field in error gets
 * `autofocus`, which moves the focus there without any script.
 */
function fieldAria(field: CardField, errors: CardFieldErrors | undefined) {
  if (!errors?.[field]) return {};
  const first = (Object.keys(FIELD_IDS) as CardField[]).find((name) => errors[name]) === field;
  return { "aria-invalid": "true", "aria-describedby": `${FIELD_IDS[field]}-error`, autofocus: first ? true : undefined };
}

/** 4242 4242 4242 4242; American Express as 3782 822463 10005. */
function groupDigits(number: string): string {
  const groups = number.length === 15 ? [4, 6, 5] : Array.from({ length: Math.ceil(number.length / 4) }, () => 4);
  const parts: string[] = [];
  let at = 0;
  for (const size of groups) {
    parts.push(number.slice(at, at + size));
    at += size;
  }
  return parts.filter(Boolean).join(" ");
}

function TestCardTable({ cards }: { cards: readonly TestCard[] }) {
  return (
    <section class="test-cards" aria-labelledby="test-cards-title">
      <h2 id="test-cards-title">Test cards</h2>
      <p class="note">
        Use any future expiry date (such as 12/34) and any 3-digit CVC (4 digits for American Express). Any other valid card number is authorized.
      </p>
      <div class="table-scroll">
        <table>
          <thead>
            <tr>
              <th scope="col">Card</th>
              <th scope="col">Result</th>
            </tr>
          </thead>
          <tbody>
            {cards.map((card) => (
              <tr>
                <td>
                  <span class="mono">{groupDigits(card.number)}</span>
                  <span class="card-brand">{brandName(card.brand)}</span>
                </td>
                <td>
                  {card.outcome === "authorized" ? (
                    <span class="outcome-ok">✓ Succeeds</span>
                  ) : (
                    <span class="outcome-fail">
                      ✕ <span class="mono">{card.failure_reason}</span>
                    </span>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

/** The hosted checkout page of a `created` payment intent: summary, card form, Pay and Cancel, test cards. */
export function CheckoutPage({ view, testCards, token, nonce, errors, expiry }: CheckoutPageProps) {
  const failed = errors ? (Object.keys(errors) as CardField[]) : [];
  return (
    <Layout title={`Pay ${view.amountText} to ${view.merchantName}`} nonce={nonce}>
      <main class="sheet checkout">
        <section class="summary" aria-labelledby="summary-title">
          <MerchantHeader name={view.merchantName} />
          <h1 id="summary-title" class="pay-label">
            Pay {view.merchantName}
          </h1>
          <p class="amount">{view.amountText}</p>
          {view.description ? <p class="description">{view.description}</p> : null}
          <IntentFacts view={view} />
        </section>

        <section class="pay" aria-labelledby="pay-title">
          <h2 id="pay-title">Pay with card</h2>
          {failed.length > 0 ? (
            <div class="alert" role="alert" id="form-errors">
              <p>Check your card details</p>
              <ul>
                {failed.map((field) => (
                  <li>
                    <a href={`#${FIELD_IDS[field]}`}>{errors![field]}</a>
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
          <form method="post" action={`/checkout/${view.id}/pay`} class="card-form">
            <input type="hidden" name="token" value={token} />
            <div class="field">
              <div class="label-row">
                <label for="card-number">Card number</label>
                <span class="brands" aria-hidden="true">
                  <span class="brand brand-visa">VISA</span>
                  <span class="brand brand-mastercard">MC</span>
                  <span class="brand brand-amex">AMEX</span>
                  <span class="brand brand-discover">DISC</span>
                </span>
              </div>
              <input
                type="text"
                id="card-number"
                name="number"
                autocomplete="cc-number"
                inputmode="numeric"
                placeholder="1234 1234 1234 1234"
                maxlength={30}
                spellcheck={false}
                required
                {...fieldAria("number", errors)}
              />
              <FieldError field="number" errors={errors} />
            </div>
            <div class="row">
              <div class="field">
                <label for="card-expiry">
                  Expiry date <span class="hint">(MM/YY)</span>
                </label>
                <input
                  type="text"
                  id="card-expiry"
                  name="expiry"
                  autocomplete="cc-exp"
                  inputmode="numeric"
                  placeholder="MM / YY"
                  maxlength={9}
                  value={expiry ?? ""}
                  required
                  {...fieldAria("expiry", errors)}
                />
                <FieldError field="expiry" errors={errors} />
              </div>
              <div class="field">
                <label for="card-cvc">
                  Security code <span class="hint">(CVC)</span>
                </label>
                <input
                  type="text"
                  id="card-cvc"
                  name="cvc"
                  autocomplete="cc-csc"
                  inputmode="numeric"
                  placeholder="CVC"
                  maxlength={4}
                  required
                  {...fieldAria("cvc", errors)}
                />
                <FieldError field="cvc" errors={errors} />
              </div>
            </div>
            <button type="submit" class="btn btn-primary">
              <LockIcon />
              Pay {view.amountText}
            </button>
          </form>
          <form method="post" action={`/checkout/${view.id}/cancel`}>
            <input type="hidden" name="token" value={token} />
            <button type="submit" class="btn btn-secondary">
              Cancel payment
            </button>
          </form>
          <p class="reassure">
            <LockIcon />
            <span>Card details are checked and then discarded: {view.merchantName} only ever sees the brand and the last four digits.</span>
          </p>
        </section>

        <TestCardTable cards={testCards} />
      </main>
    </Layout>
  );
}

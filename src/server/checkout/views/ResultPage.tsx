/** @jsxImportSource hono/jsx */
import { cardLabel } from "../../card-label.js";
import { failureText, IntentFacts, MerchantHeader, type IntentView } from "./IntentSummary.js";
import { Layout } from "./Layout.js";

type Tone = "ok" | "wait" | "off" | "fail";

interface Outcome {
  tone: Tone;
  title: string;
  lead: string;
  /** Where the payment stands, for the Status row. */
  status: string;
}

/** What each state means to the customer who just paid (or did not). */
function outcomeOf(view: IntentView): Outcome {
  switch (view.state) {
    case "captured":
      return { tone: "ok", title: "Payment successful", lead: `${view.merchantName} has received your payment.`, status: "Captured: paid" };
    case "authorized":
      return {
        tone: "wait",
        title: "Payment authorized",
        lead: `Your card was authorized. ${view.merchantName} captures the payment when your order is confirmed; there is nothing more to do here.`,
        status: "Authorized, awaiting capture by the merchant",
      };
    case "canceled":
      return { tone: "off", title: "Payment canceled", lead: "This payment was canceled. Your card was not charged.", status: "Canceled" };
    case "failed":
      return {
        tone: "fail",
        title: "Payment failed",
        lead: `${failureText(view.failureReason)} No money was taken.`,
        status: `Failed: ${view.failureReason ?? "unknown reason"}`,
      };
    default:
      return { tone: "wait", title: "Awaiting payment", lead: "This payment has not been made yet.", status: "Awaiting payment" };
  }
}

const ICON_PATHS: Record<Tone, string> = {
  ok: "M20 6 9 17l-5-5",
  wait: "M12 7v5l3 2M21 12a9 9 0 1 1-18 0 9 9 0 0 1 18 0Z",
  off: "M18 6 6 18M6 6l12 12",
  fail: "M12 8v5m0 3.5v.01M10.3 3.9 2.4 17.5A2 2 0 0 0 4.1 20.5h15.8a2 2 0 0 0 1.7-3L13.7 3.9a2 2 0 0 0-3.4 0Z",
};

function StatusIcon({ tone }: { tone: Tone }) {
  return (
    <div class={`status-icon status-${tone}`} aria-hidden="true">
      <svg width="32" height="32" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2.2" stroke-linecap="round" stroke-linejoin="round">
        <path d={ICON_PATHS[tone]} />
      </svg>
    </div>
  );
}

export interface ResultPageProps {
  view: IntentView;
  nonce: string;
  /** Shown above the outcome, e.g. when a form post found the payment already moved on. */
  notice?: string | undefined;
}

/** Where a payment stands once it has left `created`: shown instead of the form. */
export function ResultPage({ view, nonce, notice }: ResultPageProps) {
  const outcome = outcomeOf(view);
  const extra: Array<[string, string]> = [["Merchant", view.merchantName]];
  if (view.description) extra.push(["Description", view.description]);
  if (view.card) extra.push(["Card", cardLabel(view.card)]);
  extra.push(["Status", outcome.status]);
  return (
    <Layout title={`${outcome.title} · ${view.merchantName}`} nonce={nonce}>
      <main class="sheet result" data-state={view.state}>
        <MerchantHeader name={view.merchantName} />
        {notice ? (
          <p class="notice" role="status">
            {notice}
          </p>
        ) : null}
        <StatusIcon tone={outcome.tone} />
        <h1>{outcome.title}</h1>
        <p class="lead">{outcome.lead}</p>
        <p class="amount">{view.amountText}</p>
        <IntentFacts view={view} extra={extra} />
        <p class="closing">You can close this page.</p>
      </main>
    </Layout>
  );
}

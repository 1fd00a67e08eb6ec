/** @jsxImportSource hono/jsx */
import type { Child } from "hono/jsx";
import { DocumentHead } from "../../document-head.js";

/**
 * The checkout pages' one stylesheet, inlined under the response's CSP nonce
 * (the page loads nothing else). Colours keep WCAG AA contrast: text ≥ 4.5:1,
 * input borders and focus rings ≥ 3:1.
 */
const STYLES = `
:root {
  --ink: #1a1f36; --muted: #4f566b; --line: #e3e8ee; --field: #7a8699;
  --panel: #f6f8fb; --accent: #4f46e5; --accent-dark: #3730a3; --ring: rgba(79, 70, 229, .35);
  --danger: #b42318; --danger-bg: #fef3f2; --ok: #067647; --ok-bg: #dcfae6;
  --wait: #93370d; --wait-bg: #fef0c7; --off: #4f566b; --off-bg: #eef1f5;
  color-scheme: light;
}
*, *::before, *::after { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body {
  margin: 0; min-height: 100vh; display: flex; flex-direction: column; align-items: center;
  background: #eef1f6; color: var(--ink);
  font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
}
.page { width: 100%; max-width: 980px; padding: 40px 24px 24px; flex: 1; display: flex; flex-direction: column; }
h1, h2, p, dl, dd { margin: 0; }
a { color: var(--accent); }
:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }

.sheet {
  background: #fff; border-radius: 14px; overflow: hidden;
  box-shadow: 0 1px 3px rgba(26, 31, 54, .08), 0 18px 40px -12px rgba(26, 31, 54, .18);
}
.checkout { display: grid; grid-template-columns: minmax(0, 1fr); }
.summary { background: var(--panel); padding: 28px 24px; border-bottom: 1px solid var(--line); }
.pay { padding: 28px 24px; }
.test-cards { padding: 24px; background: var(--panel); border-top: 1px solid var(--line); }
@media (min-width: 860px) {
  .checkout { grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); grid-template-areas: "summary pay" "cards pay"; }
  .summary { grid-area: summary; padding: 48px 48px 24px; border-bottom: 0; border-right: 1px solid var(--line); }
  .test-cards { grid-area: cards; padding: 8px 48px 48px; border-top: 0; border-right: 1px solid var(--line); }
  .pay { grid-area: pay; padding: 48px; }
}

.merchant { display: flex; align-items: center; gap: 10px; margin-bottom: 28px; flex-wrap: wrap; }
.avatar {
  width: 32px; height: 32px; border-radius: 50%; display: grid; place-items: center; flex: none;
  background: var(--accent); color: #fff; font-weight: 700; font-size: 15px;
}
.merchant-name { font-weight: 600; font-size: 16px; }
.badge {
  font-size: 11px; font-weight: 700; letter-spacing: .06em; text-transform: uppercase;
  color: #7a2e0e; background: #fdead7; border: 1px solid #f9c28d; border-radius: 4px; padding: 1px 6px;
}
.pay-label { font-size: 16px; font-weight: 500; color: var(--muted); }
.amount { font-size: 36px; line-height: 1.2; font-weight: 700; letter-spacing: -.02em; margin-top: 2px; font-variant-numeric: tabular-nums; overflow-wrap: anywhere; }
.description { margin-top: 12px; color: var(--ink); overflow-wrap: anywhere; white-space: pre-line; }
.facts { margin-top: 20px; display: grid; gap: 8px; }
.facts div { display: flex; justify-content: space-between; gap: 16px; padding-top: 8px; border-top: 1px solid var(--line); }
.facts dt { color: var(--muted); }
.facts dd { font-weight: 500; text-align: right; overflow-wrap: anywhere; }
.mono { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 14px; }

h2 { font-size: 18px; font-weight: 600; margin-bottom: 16px; }
.alert {
  border: 1px solid #fda29b; background: var(--danger-bg); color: var(--danger);
  border-radius: 8px; padding: 12px 14px; margin-bottom: 18px;
}
.alert p { font-weight: 600; }
.alert ul { margin: 4px 0 0; padding-left: 20px; }
.alert a { color: var(--danger); }
.field { margin-bottom: 16px; }
.field label { display: block; font-weight: 500; margin-bottom: 6px; }
.hint { color: var(--muted); font-weight: 400; }
input[type="text"] {
  width: 100%; height: 46px; padding: 10px 12px; font: inherit; font-size: 16px; color: var(--ink);
  background: #fff; border: 1px solid var(--field); border-radius: 8px;
  transition: border-color .15s, box-shadow .15s;
}
input[type="text"]::placeholder { color: #6b7385; }
input[type="text"]:focus { outline: none; border-color: var(--accent); box-shadow: 0 0 0 3px var(--ring); }
input[aria-invalid="true"] { border-color: var(--danger); }
input[aria-invalid="true"]:focus { box-shadow: 0 0 0 3px rgba(180, 35, 24, .25); }
#card-number { font-variant-numeric: tabular-nums; letter-spacing: .02em; }
.label-row { display: flex; justify-content: space-between; align-items: center; gap: 8px; margin-bottom: 6px; }
.label-row label { margin-bottom: 0; }
.brands { display: flex; gap: 4px; }
.brand {
  font: 700 9px/1 system-ui, sans-serif; letter-spacing: .04em; padding: 4px 5px; border-radius: 3px;
  border: 1px solid var(--line); color: #fff;
}
.brand-visa { background: #1a1f71; }
.brand-mastercard { background: #eb001b; }
.brand-amex { background: #006fcf; }
.brand-discover { background: #e65c00; }
.field-error { color: var(--danger); font-size: 14px; margin-top: 6px; display: flex; gap: 6px; align-items: flex-start; }
.row { display: grid; grid-template-columns: 1fr 1fr; gap: 12px; }
@media (max-width: 340px) { .row { grid-template-columns: 1fr; gap: 0; } }

.btn {
  display: flex; align-items: center; justify-content: center; gap: 8px; width: 100%;
  min-height: 48px; padding: 10px 16px; border-radius: 8px; cursor: pointer;
  font: inherit; font-size: 16px; font-weight: 600; text-decoration: none;
}
.btn-primary { background: var(--accent); color: #fff; border: 1px solid var(--accent); margin-top: 8px; box-shadow: 0 1px 2px rgba(26, 31, 54, .15); }
.btn-primary:hover { background: var(--accent-dark); border-color: var(--accent-dark); }
.btn-secondary { background: #fff; color: var(--ink); border: 1px solid var(--field); margin-top: 10px; }
.btn-secondary:hover { background: var(--panel); }
.btn svg { flex: none; }
.reassure { display: flex; gap: 8px; align-items: flex-start; margin-top: 18px; color: var(--muted); font-size: 13px; }
.reassure svg { flex: none; margin-top: 2px; }

.test-cards h2 { font-size: 15px; margin-bottom: 4px; display: flex; align-items: center; gap: 8px; }
.test-cards .note { color: var(--muted); font-size: 13px; margin-bottom: 10px; }
.test-cards table { width: 100%; border-collapse: collapse; font-size: 13px; }
.test-cards th { text-align: left; font-weight: 600; color: var(--muted); padding: 6px 8px 6px 0; border-bottom: 1px solid var(--line); }
.test-cards td { padding: 7px 8px 7px 0; border-bottom: 1px solid var(--line); vertical-align: top; }
.test-cards tr:last-child td { border-bottom: 0; }
.test-cards .mono { font-size: 13px; user-select: all; white-space: nowrap; }
.table-scroll { overflow-x: auto; }
.test-cards .outcome-fail .mono { font-size: 12px; font-weight: 500; user-select: text; }
.outcome-ok { color: var(--ok); font-weight: 600; }
.outcome-fail { color: var(--danger); font-weight: 600; }
.test-cards .card-brand { display: block; color: var(--muted); font-size: 12px; }
@media (min-width: 401px) { .test-cards .outcome-fail { white-space: nowrap; } }
@media (max-width: 400px) { .test-cards .mono, .test-cards .outcome-fail .mono { font-size: 11.5px; } }

.result { max-width: 480px; width: 100%; margin: 0 auto; padding: 36px 28px 28px; text-align: center; }
.result .merchant { justify-content: center; margin-bottom: 24px; }
.status-icon { width: 64px; height: 64px; border-radius: 50%; display: grid; place-items: center; margin: 0 auto 16px; }
.status-ok { background: var(--ok-bg); color: var(--ok); }
.status-wait { background: var(--wait-bg); color: var(--wait); }
.status-off { background: var(--off-bg); color: var(--off); }
.status-fail { background: var(--danger-bg); color: var(--danger); }
.result h1 { font-size: 24px; line-height: 1.25; font-weight: 700; }
.result .lead { color: var(--muted); margin-top: 8px; }
.result .amount { font-size: 30px; margin-top: 18px; }
.result .facts { text-align: left; margin-top: 20px; }
.notice {
  text-align: left; border: 1px solid #fedf89; background: #fffaeb; color: var(--wait);
  border-radius: 8px; padding: 10px 12px; margin-bottom: 20px; font-size: 14px;
}
.pill { display: inline-block; border-radius: 999px; padding: 1px 10px; font-size: 13px; font-weight: 600; }
.closing { margin-top: 22px; color: var(--muted); font-size: 13px; }

footer.foot { text-align: center; color: var(--muted); font-size: 13px; padding: 20px 16px 8px; }
@media (max-width: 600px) {
  .page { padding: 0 0 16px; }
  .sheet { border-radius: 0; box-shadow: none; }
  .amount { font-size: 32px; }
}
@media (prefers-reduced-motion: reduce) { * { transition: none !important; } }
`;

export interface LayoutProps {
  title: string;
  /** The response's CSP nonce: the one thing allowed to style the page. */
  nonce: string;
  children?: Child;
}

/** The HTML document around every checkout page: no scripts, no external resources. */
export function Layout({ title, nonce, children }: LayoutProps) {
  return (
    <html lang="en">
      <DocumentHead title={title} nonce={nonce} styles={STYLES} />
      <body>
        <div class="page">
          {children}
          <footer class="foot">paysim sandbox · test mode: no real card is charged and no money moves</footer>
        </div>
      </body>
    </html>
  );
}

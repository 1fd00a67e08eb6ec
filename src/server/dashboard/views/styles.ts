/**
 * The dashboard's one stylesheet, inlined under the response's CSP nonce (the
 * page loads nothing else). System fonts; colours keep WCAG AA contrast (text
 * ≥ 4.5:1 on its background, borders and focus rings ≥ 3:1). Wide tables
 * scroll inside their own box, so the page itself never scrolls sideways.
 */
export const DASHBOARD_STYLES = `
:root {
  --ink: #1a1f36; --muted: #4f566b; --line: #dfe4ea; --field: #7a8699; --bg: #f4f6f9; --panel: #fff;
  --accent: #4f46e5; --accent-dark: #3730a3; --accent-bg: #eef0ff; --ring: rgba(79, 70, 229, .35);
  --danger: #b42318; --danger-bg: #fef3f2; --ok: #067647; --ok-bg: #dcfae6;
  --wait: #93370d; --wait-bg: #fef0c7; --off: #4f566b; --off-bg: #eef1f5;
  color-scheme: light;
}
*, *::before, *::after { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body { margin: 0; background: var(--bg); color: var(--ink); font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
h1, h2, h3, p, dl, dd, ul { margin: 0; }
a { color: var(--accent); text-underline-offset: 2px; }
a:hover { color: var(--accent-dark); }
:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
.skip { position: absolute; left: -9999px; top: 8px; background: #fff; padding: 8px 12px; z-index: 2; }
.skip:focus { left: 8px; }
.mono, code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 13px; }
.muted { color: var(--muted); }

.top { background: #1a1f36; color: #fff; }
.top-inner { max-width: 1200px; margin: 0 auto; padding: 10px 24px; display: flex; align-items: center; gap: 16px; flex-wrap: wrap; }
.brand { font-weight: 700; font-size: 17px; letter-spacing: -.01em; color: #fff; text-decoration: none; display: flex; align-items: center; gap: 8px; }
.brand:hover { color: #fff; }
.tag { font-size: 11px; font-weight: 700; letter-spacing: .06em; text-transform: uppercase; color: #7a2e0e; background: #fdead7; border-radius: 4px; padding: 1px 6px; }
.who { margin-left: auto; display: flex; align-items: center; gap: 12px; font-size: 14px; color: #d5d9e4; }
.who strong { color: #fff; font-weight: 600; }
.who form { margin: 0; }
.link-button { background: none; border: 1px solid #8e96ad; color: #fff; border-radius: 6px; padding: 4px 10px; font: inherit; font-size: 13px; cursor: pointer; }
.link-button:hover { background: #2d3350; }
nav.tabs { background: #fff; border-bottom: 1px solid var(--line); }
nav.tabs ul { max-width: 1200px; margin: 0 auto; padding: 0 16px; list-style: none; display: flex; gap: 4px; overflow-x: auto; }
nav.tabs a { display: block; padding: 12px 10px; color: var(--muted); text-decoration: none; font-weight: 500; white-space: nowrap; border-bottom: 3px solid transparent; }
nav.tabs a:hover { color: var(--ink); }
nav.tabs a[aria-current="page"] { color: var(--accent); border-bottom-color: var(--accent); }

main { max-width: 1200px; margin: 0 auto; padding: 24px; }
.head { display: flex; align-items: flex-end; justify-content: space-between; gap: 12px; flex-wrap: wrap; margin-bottom: 16px; }
h1 { font-size: 24px; line-height: 1.25; letter-spacing: -.01em; overflow-wrap: anywhere; }
h2 { font-size: 17px; margin-bottom: 12px; }
.crumb { font-size: 14px; margin-bottom: 4px; display: block; }
.lead { color: var(--muted); margin-top: 4px; }
.card { background: var(--panel); border: 1px solid var(--line); border-radius: 10px; padding: 18px 20px; margin-bottom: 20px; min-width: 0; }
.card.flush { padding: 0; overflow: hidden; }
.card.flush > h2 { padding: 16px 20px 0; }
.grid { display: grid; gap: 20px; grid-template-columns: minmax(0, 1fr); margin-bottom: 20px; }
.grid > .card { margin-bottom: 0; }
@media (min-width: 900px) { .grid.two { grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); } }

.notice { border-radius: 8px; padding: 10px 14px; margin-bottom: 16px; border: 1px solid; font-weight: 500; }
.notice.ok { background: var(--ok-bg); color: var(--ok); border-color: #75e0a7; }
.notice.error { background: var(--danger-bg); color: var(--danger); border-color: #fda29b; }

.table-scroll { overflow-x: auto; }
table { width: 100%; border-collapse: collapse; font-size: 14px; }
th { text-align: left; font-weight: 600; color: var(--muted); font-size: 12px; text-transform: uppercase; letter-spacing: .04em; padding: 10px 12px; border-bottom: 1px solid var(--line); background: #fafbfc; white-space: nowrap; }
td { padding: 10px 12px; border-bottom: 1px solid var(--line); vertical-align: top; }
tr:last-child td { border-bottom: 0; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.time { white-space: nowrap; color: var(--muted); font-variant-numeric: tabular-nums; }
tr.fresh td { animation: fresh 2.5s ease-out; }
@keyframes fresh { from { background: var(--accent-bg); } to { background: transparent; } }
.empty { padding: 28px 20px; text-align: center; color: var(--muted); }

.pill { display: inline-block; border-radius: 999px; padding: 1px 9px; font-size: 12.5px; font-weight: 600; white-space: nowrap; background: var(--off-bg); color: var(--off); }
.pill.ok { background: var(--ok-bg); color: var(--ok); }
.pill.wait { background: var(--wait-bg); color: var(--wait); }
.pill.fail { background: var(--danger-bg); color: var(--danger); }
.pills { display: flex; flex-wrap: wrap; gap: 4px; }

dl.facts { display: grid; grid-template-columns: minmax(110px, max-content) minmax(0, 1fr); gap: 8px 16px; }
dl.facts dt { color: var(--muted); }
dl.facts dd { overflow-wrap: anywhere; }
.amount-big { margin-bottom: 10px; font-size: 28px; font-weight: 700; letter-spacing: -.02em; font-variant-numeric: tabular-nums; }

pre { margin: 0; background: #f6f8fb; border: 1px solid var(--line); border-radius: 8px; padding: 12px; overflow: auto; font-size: 13px; line-height: 1.45; max-height: 640px; }
pre.wrap { white-space: pre-wrap; overflow-wrap: anywhere; }

form.inline { display: inline; margin: 0; }
.actions { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; }
.btn { display: inline-flex; align-items: center; justify-content: center; gap: 6px; min-height: 40px; padding: 8px 14px; border-radius: 8px; border: 1px solid var(--field); background: #fff; color: var(--ink); font: inherit; font-weight: 600; cursor: pointer; text-decoration: none; }
.btn:hover { background: #f6f8fb; color: var(--ink); }
.btn.primary { background: var(--accent); border-color: var(--accent); color: #fff; }
.btn.primary:hover { background: var(--accent-dark); border-color: var(--accent-dark); color: #fff; }
.btn.danger { color: var(--danger); border-color: #e0857c; }
.btn.danger:hover { background: var(--danger-bg); }
.btn.small { min-height: 32px; padding: 4px 10px; font-size: 13px; }

.field { margin-bottom: 14px; }
.field > label, fieldset legend { display: block; font-weight: 600; margin-bottom: 6px; }
.hint { color: var(--muted); font-size: 13px; font-weight: 400; }
input[type="text"], input[type="url"], input[type="password"], input[type="number"], select {
  width: 100%; min-height: 42px; padding: 8px 11px; font: inherit; color: var(--ink); background: #fff;
  border: 1px solid var(--field); border-radius: 8px;
}
input:focus, select:focus { outline: none; border-color: var(--accent); box-shadow: 0 0 0 3px var(--ring); }
input[type="checkbox"]:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; box-shadow: none; }
fieldset { border: 0; padding: 0; margin: 0 0 14px; min-width: 0; }
.checks { display: grid; grid-template-columns: repeat(auto-fill, minmax(230px, 1fr)); gap: 4px 16px; }
.checks label { display: flex; gap: 8px; align-items: center; font-size: 14px; }
.checks input { width: 18px; height: 18px; accent-color: var(--accent); }
.fields { display: grid; grid-template-columns: repeat(auto-fill, minmax(170px, 1fr)); gap: 0 16px; }
/* Each field's label grows, so the inputs of one row line up whatever the length of their hints. */
.fields .field { display: flex; flex-direction: column; }
.fields .field > label { flex: 1; }
.fields .hint { display: block; }
@media (min-width: 641px) { .fields .field.wide { grid-column: span 2; } }
.effects { margin-top: 18px; padding-top: 14px; border-top: 1px solid var(--line); }
.effects h3 { font-size: 14px; margin: 0 0 8px; color: var(--muted); }
.filter { display: flex; gap: 8px; align-items: flex-end; flex-wrap: wrap; }
.filter .field { margin: 0; min-width: 0; flex: 1 1 240px; max-width: 340px; }
/* The live badge only once the page's stream is open; without it, a hint to reload. */
.live { display: none; }
[data-live="on"] .live { display: inline-flex; }
[data-live="on"] .not-live { display: none; }
.live { align-items: center; gap: 6px; font-size: 13px; color: var(--ok); font-weight: 600; }
.live::before { content: ""; width: 8px; height: 8px; border-radius: 50%; background: #17b26a; }
.pager { padding: 12px 20px; border-top: 1px solid var(--line); }

.clock-now { font-size: 30px; font-weight: 700; font-variant-numeric: tabular-nums; letter-spacing: -.01em; overflow-wrap: anywhere; }
.attempts { margin-top: 12px; }
.delivery + .delivery { margin-top: 20px; padding-top: 20px; border-top: 1px solid var(--line); }
.delivery-head { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; margin-bottom: 8px; }
.delivery-head .mono { overflow-wrap: anywhere; }
.signatures { margin-top: 12px; }
.signatures h3 { font-size: 14px; margin: 0 0 6px; color: var(--muted); }
.signatures ol { margin: 0; padding-left: 24px; display: grid; gap: 4px; }
.signatures code { overflow-wrap: anywhere; word-break: break-all; }
details summary { cursor: pointer; color: var(--accent); font-weight: 500; }
.secret { display: flex; gap: 8px; align-items: center; flex-wrap: wrap; }
.secret code { background: #f6f8fb; border: 1px solid var(--line); border-radius: 6px; padding: 2px 6px; overflow-wrap: anywhere; }

.finding.error { border-left: 4px solid var(--danger); }
.finding.warning { border-left: 4px solid #f79009; }
.finding-head { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; margin-bottom: 8px; }
.finding h2 { margin-bottom: 6px; }
.finding .advice { margin-bottom: 12px; }
.finding .table-scroll { border: 1px solid var(--line); border-radius: 8px; }
.finding td.request { white-space: nowrap; }
.finding td.detail { overflow-wrap: anywhere; }
.finding .more { margin-top: 8px; font-size: 13px; }
.section-title { font-size: 20px; margin: 28px 0 12px; }

.signin { max-width: 440px; margin: 56px auto; }
.signin h1 { margin-bottom: 6px; }
.signin .card { padding: 24px; }
.signin .btn { width: 100%; margin-top: 4px; }
footer.foot { text-align: center; color: var(--muted); font-size: 13px; padding: 8px 16px 24px; }

@media (max-width: 640px) {
  .top-inner { padding: 10px 16px; gap: 8px 12px; }
  nav.tabs ul { flex-wrap: wrap; gap: 0 2px; padding: 0 8px; }
  nav.tabs a { padding: 9px 8px; }
  /* Tables become one block per row, each cell labelled: nothing hides off to the side. */
  .card.flush > h2 { padding: 14px 12px 0; }
  table.stack thead { display: none; }
  table.stack tr { display: block; padding: 10px 12px; border-bottom: 1px solid var(--line); }
  table.stack tr:last-child { border-bottom: 0; }
  table.stack td { display: block; padding: 2px 0; border: 0; text-align: left; white-space: normal; }
  table.stack td[data-label]::before { content: attr(data-label) " "; color: var(--muted); font-size: 12px; font-weight: 600; text-transform: uppercase; letter-spacing: .04em; margin-right: 6px; }
  table.stack td.hide-narrow { display: none; }
  main { padding: 16px 12px; }
  .card { padding: 14px; }
  th, td { padding: 8px; }
  .hide-narrow { display: none; }
  h1 { font-size: 21px; }
  .signin { margin: 24px auto; }
}
@media (prefers-reduced-motion: reduce) { tr.fresh td { animation: none; } }
`;

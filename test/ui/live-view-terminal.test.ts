import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { displayWidth } from "../../src/ui/width.js";
import { PAYSIM_BIN, runCli } from "../helpers/cli.js";
import { useTempDir, useTmux } from "../helpers/disposables.js";
import { clientFor, createIntent } from "../helpers/paysim.js";
import { pressDashboardLink } from "../helpers/dashboard-link.js";
import { closedPortUrl, freePort } from "../helpers/receiver.js";
import { resetCountsInWords } from "../helpers/registry.js";
import { requireTmux, type TmuxTerminal } from "../helpers/tmux.js";

// The built `paysim start` in a real terminal (tmux), read the way a developer reads it: the
// screen. Ink's own test renderer cannot show what happens while Ink is still loading, nor how a
// terminal reflows, scrolls and resizes.

const BUILT_CLI = fileURLToPath(new URL("../../dist/paysim-cli.js", import.meta.url));
const KEY = "sk_test_live_view_terminal_0001";
/** Long enough to be cut at 70 columns, not at 140. */
const LONG_PATH = "/hooks/a/rather/long/path/for/the/resize";

interface LiveTerminal {
  terminal: TmuxTerminal;
  url: string;
  api: ReturnType<typeof clientFor>["api"];
}

/** `paysim start` in a 140 × 40 terminal; resolves as soon as /health answers (the view may not be drawn yet). */
async function startLive(options: { forwardTo?: string; columns?: number; rows?: number } = {}): Promise<LiveTerminal> {
  // Each test fails, none is skipped, when what it needs is missing.
  requireTmux();
  if (!existsSync(BUILT_CLI)) throw new Error(`${BUILT_CLI} is missing: run \`npm run build\` before the CLI tests.`);
  const dir = useTempDir();
  const port = await freePort();
  const args = [process.execPath, PAYSIM_BIN, "start", "--port", String(port), "--db", join(dir, "paysim.db"), "--secret-key", KEY];
  if (options.forwardTo) args.push("--forward-to", options.forwardTo);
  const terminal = await useTmux(args, { columns: options.columns ?? 140, rows: options.rows ?? 40, cwd: dir });
  const url = `http://127.0.0.1:${port}`;
  await waitForHealth(url, terminal);
  return { terminal, url, api: clientFor(url, KEY).api };
}

async function waitForHealth(url: string, terminal: TmuxTerminal): Promise<void> {
  // A guard against a paysim that never serves, not a timing assertion.
  const deadline = Date.now() + 30_000;
  for (;;) {
    const ok = await fetch(`${url}/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`paysim never answered /health; the terminal shows:\n${await terminal.screen()}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const STATUS_LINE = /^paysim http:\/\/127\.0\.0\.1:\d+ · clock \d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ · /;
/** A link `d` printed in the live view. */
const FRESH_LINK = /^ {2}dashboard (http:\/\/\S+\/dashboard\/login\/\S+) {2}\(one-time; d for another\)$/;
const COUNTDOWN = /↻ connection refused, retry 1\/6 in (\d\d):(\d\d)/;

function lines(screen: string, pattern: RegExp): string[] {
  return screen.split("\n").filter((line) => pattern.test(line));
}

function countdownSeconds(screen: string): number | undefined {
  const match = COUNTDOWN.exec(screen);
  return match ? Number(match[1]) * 60 + Number(match[2]) : undefined;
}

describe("paysim start in a real terminal", () => {
  it("shows a request made as soon as /health answers: its line, its event and the failing delivery's countdown", async () => {
    const { terminal, api } = await startLive({ forwardTo: await closedPortUrl() });
    const intent = await createIntent({ api });

    const screen = await terminal.waitForScreen(
      (s) => s.includes("POST /v1/payment_intents 201") && s.includes(intent.id) && COUNTDOWN.test(s) && / · 1 in flight · q to quit$/m.test(s),
      `the creation's request line, its event ${intent.id}, its failing delivery and "1 in flight"`,
    );
    expect(lines(screen, /^\d\d:\d\d:\d\d {2}POST \/v1\/payment_intents 201 \d+(\.\d)?ms$/)).toHaveLength(1);
    expect(lines(screen, new RegExp(`^\\d\\d:\\d\\d:\\d\\d {2}payment_intent\\.created +${intent.id} {2}evt_\\w{24}$`))).toHaveLength(1);
    expect(lines(screen, /^ {10}↻ connection refused, retry 1\/6 in 00:[0-3]\d {2}→ http:\/\/127\.0\.0\.1:\d+\/hooks$/)).toHaveLength(1);
    expect(lines(screen, STATUS_LINE)).toHaveLength(1);
  }, 60_000);

  it("on a sandbox reset, stops showing the deleted event's countdown and says what the reset deleted", async () => {
    const { terminal, url, api } = await startLive({ forwardTo: await closedPortUrl() });
    const intent = await createIntent({ api });
    await terminal.waitForScreen(
      (s) => s.includes(intent.id) && COUNTDOWN.test(s) && / · 1 in flight · q to quit$/m.test(s),
      "the failing delivery's countdown",
    );

    const reset = await fetch(`${url}/v1/sandbox/reset`, { method: "POST", headers: { Authorization: `Bearer ${KEY}` } });
    expect(reset.status).toBe(200);
    const resetLine = new RegExp(
      `^\\d\\d:\\d\\d:\\d\\d {2}sandbox reset \\(company co_\\w+\\): ${resetCountsInWords({ payment_intents: 1, events: 1 })} deleted$`,
    );
    const screen = await terminal.waitForScreen(
      (s) => / · 0 in flight · q to quit$/m.test(s) && lines(s, resetLine).length > 0,
      '"0 in flight" and the reset\'s line',
    );
    expect(lines(screen, resetLine)).toHaveLength(1);
    expect(COUNTDOWN.test(screen)).toBe(false);
  }, 60_000);

  it("counts a failing delivery's retry down on screen as the seconds pass", async () => {
    const { terminal, api } = await startLive({ forwardTo: await closedPortUrl() });
    await createIntent({ api });
    const first = countdownSeconds(await terminal.waitForScreen((s) => COUNTDOWN.test(s), "the retry countdown"))!;
    expect(first).toBeGreaterThan(0);
    expect(first).toBeLessThanOrEqual(30);

    const later = await terminal.waitForScreen((s) => (countdownSeconds(s) ?? first) < first, `the countdown below ${first} s`);
    expect(lines(later, COUNTDOWN)).toHaveLength(1);
    expect(lines(later, STATUS_LINE)).toHaveLength(1);
  }, 60_000);

  it("keeps the newest requests in sight while deliveries pile up in flight", async () => {
    const { terminal, api } = await startLive({ forwardTo: await closedPortUrl(), rows: 25 });
    for (let i = 0; i < 12; i++) await createIntent({ api });
    await terminal.waitForScreen((s) => / · 12 in flight · q to quit$/m.test(s), "12 deliveries in flight");

    const probes = ["a", "b", "c"].map((name) => `/v1/payment_intents/pi_probe_${name}`);
    for (const path of probes) expect((await api("GET", path)).status).toBe(404);
    await terminal.waitForScreen((s) => s.includes(`GET ${probes[2]} 404`), "the newest request, printed", { history: true });
    const screen = await terminal.waitForScreen((s) => / · 12 in flight · q to quit$/m.test(s), "the status line");
    for (const path of probes) expect(lines(screen, new RegExp(`^\\d\\d:\\d\\d:\\d\\d {2}GET ${path} 404 `))).toHaveLength(1);
    // The in-flight events that do not fit are counted, not lost.
    const shown = lines(screen, /^\d\d:\d\d:\d\d {2}payment_intent\.created /).length;
    const hidden = Number(/^… (\d+) older in flight not shown$/m.exec(screen)?.[1] ?? 0);
    expect(shown).toBeGreaterThan(0);
    expect(shown + hidden).toBe(12);
  }, 60_000);

  it("redraws at the new width after a resize, leaving no pieces of the old frame behind", async () => {
    const { terminal, api } = await startLive({ forwardTo: (await closedPortUrl()).replace("/hooks", LONG_PATH) });
    const first = await createIntent({ api });
    await terminal.waitForScreen((s) => s.includes(`${LONG_PATH}\n`) && / · 1 in flight · q to quit$/m.test(s), "the delivery line at 140 columns");

    await terminal.resize(70, 40);
    const narrow = await terminal.waitForScreen(
      (s) => lines(s, /^paysim http:.* · 1 in f\S*…$/).length > 0 && lines(s, / {2}→ http:\/\/127\.0\.0\.…$/).length > 0,
      "the live region cut at 70 columns",
    );
    for (const line of narrow.split("\n")) expect(line.length).toBeLessThanOrEqual(70);
    expect(lines(narrow, /^in flight$/)).toHaveLength(1);
    expect(lines(narrow, new RegExp(first.id))).toHaveLength(1);
    expect(lines(narrow, STATUS_LINE)).toHaveLength(1);

    // Drawing goes on at the new width.
    const second = await createIntent({ api });
    const after = await terminal.waitForScreen((s) => s.includes(second.id) && /^paysim http:.* · 2 in f\S*…$/m.test(s), "the second creation at 70 columns");
    for (const line of after.split("\n")) expect(line.length).toBeLessThanOrEqual(70);
    expect(lines(after, /^in flight$/)).toHaveLength(1);
    expect(lines(after, new RegExp(first.id))).toHaveLength(1);
    expect(lines(after, new RegExp(second.id))).toHaveLength(1);
    expect(lines(after, STATUS_LINE)).toHaveLength(1);

    await terminal.resize(140, 40);
    const wide = await terminal.waitForScreen((s) => / · 2 in flight · q to quit$/m.test(s), "the whole status line again at 140 columns");
    expect(lines(wide, STATUS_LINE)).toHaveLength(1);
    expect(lines(wide, /^in flight$/)).toHaveLength(1);
  }, 60_000);

  it("prints a request's line above the event it made, and a day line when `paysim clock advance` crosses midnight", async () => {
    const { terminal, url, api } = await startLive();
    const intent = await createIntent({ api });
    const before = await terminal.waitForScreen((s) => s.includes(intent.id), `the event of ${intent.id}`);
    const rows = before.split("\n");
    const eventRow = rows.findIndex((row) => row.includes(intent.id));
    expect(rows[eventRow - 1]).toMatch(/^\d\d:\d\d:\d\d {2}POST \/v1\/payment_intents 201 /);

    const advanced = await runCli(["clock", "advance", "1d", "--url", url, "--key", KEY]);
    expect(advanced.code).toBe(0);
    const day = /clock (\d{4}-\d\d-\d\d) /.exec(
      await terminal.waitForScreen((s) => s.includes("POST /v1/sandbox/clock/advance 200"), "the advance's request line"),
    )![1];
    const screen = await terminal.waitForScreen((s) => s.includes(`── ${day} ──`), `the day line of ${day}`);
    const after = screen.split("\n");
    expect(after[after.indexOf(`── ${day} ──`) + 1]).toMatch(/^\d\d:\d\d:\d\d {2}POST \/v1\/sandbox\/clock\/advance 200 /);
  }, 60_000);

  it("cuts a request line holding CJK at the terminal's width, on one row", async () => {
    const { terminal, api } = await startLive({ columns: 80 });
    expect((await api("GET", encodeURI(`/v1/payment_intents/${"日本語の支払い".repeat(8)}`))).status).toBe(404);
    const screen = await terminal.waitForScreen((s) => s.includes("GET /v1/payment_intents/日本語"), "the request line");
    const row = lines(screen, /GET \/v1\/payment_intents\/日本語/)[0]!;
    expect(row.endsWith("…")).toBe(true);
    expect(displayWidth(row)).toBeLessThanOrEqual(80);
    expect(lines(screen, /^…$/)).toEqual([]);
  }, 60_000);

  it("shows a request path's controls as visible escapes: no title set, no screen cleared, no line forged", async () => {
    const { terminal, url } = await startLive();
    // No key: any web page can make these requests, and their 401s are shown all the same.
    for (const path of ["/v1/%1B]0;PWNED%07", "/v1/%1B[2J%1B[H", "/v1/x%0D%0Aforged", "/v1/%E2%80%AEfdp.exe"])
      expect((await fetch(`${url}${path}`)).status).toBe(401);
    const screen = await terminal.waitForScreen((s) => s.includes("GET /v1/\\u202efdp.exe 401"), "the last request's line");
    expect(lines(screen, /^\d\d:\d\d:\d\d {2}GET \/v1\/\\u001b\]0;PWNED\\u0007 401 /)).toHaveLength(1);
    expect(lines(screen, /^\d\d:\d\d:\d\d {2}GET \/v1\/\\u001b\[2J\\u001b\[H 401 /)).toHaveLength(1);
    expect(lines(screen, /^\d\d:\d\d:\d\d {2}GET \/v1\/x\\u000d\\u000aforged 401 /)).toHaveLength(1);
    expect(lines(screen, /^forged/)).toEqual([]);
    // The screen was not cleared: the banner is still above the lines.
    expect(lines(screen, /^paysim \S+ listening on /)).toHaveLength(1);
  }, 60_000);

  it("prints a fresh one-time dashboard link on d, each of which signs in once", async () => {
    const { terminal } = await startLive({ rows: 12 });
    const banner = await terminal.waitForScreen(
      (s) => s.includes("press d for a fresh one-time dashboard link, q to quit") && STATUS_LINE.test(s.trimEnd().split("\n").at(-1)!),
      "the banner with its link and the key's hint",
    );
    const first = /^ {2}dashboard (http:\/\/\S+\/dashboard\/login\/\S+)$/m.exec(banner)![1]!;
    expect((await pressDashboardLink(first)).status).toBe(303);

    const fresh: string[] = [];
    for (let press = 1; press <= 2; press++) {
      await terminal.sendKeys("d");
      const screen = await terminal.waitForScreen((s) => lines(s, FRESH_LINK).length === press, `fresh link ${press}`);
      fresh.push(FRESH_LINK.exec(lines(screen, FRESH_LINK).at(-1)!)![1]!);
    }
    expect(new Set([first, ...fresh]).size).toBe(3);
    for (const link of fresh) expect((await pressDashboardLink(link)).status).toBe(303);
    // Each is one-time: pressed again, it is spent.
    expect((await pressDashboardLink(fresh[0]!)).status).not.toBe(303);
  }, 60_000);

  it("quits on q: the process exits 0 and says paysim stopped", async () => {
    const { terminal, api } = await startLive({ forwardTo: await closedPortUrl() });
    await createIntent({ api });
    await terminal.waitForScreen((s) => / · 1 in flight · q to quit$/m.test(s), "the status line with the delivery in flight");

    await terminal.sendKeys("q");
    expect(await terminal.waitForExit()).toBe(0);
    const history = await terminal.history();
    expect(history).toContain("paysim stopped; pending deliveries are kept for the next start.");
    expect(lines(history, /stopping…$/)).toHaveLength(1);
  }, 60_000);
});

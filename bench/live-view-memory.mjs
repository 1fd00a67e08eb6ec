#!/usr/bin/env node
// node bench/live-view-memory.mjs [requests]: the resident memory of `paysim start` with its live
// view in a real terminal (tmux, 140 × 40) while it shows `requests` API requests (default 100,000),
// each a creation that prints a request line and an event line. Needs tmux and `npm run build`.
// BENCH_RATE: requests a second at most (default 400: slow enough that the view prints every line
// rather than summarising a burst). BENCH_UI=0: the same with --no-ui (log lines), the server's
// own share. BENCH_PAYSIM: another build's bin/paysim.js, to compare.
// Not part of npm test: the figures depend on the machine; docs/performance.md records them.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { Agent, request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";

const ROOT = new URL("..", import.meta.url).pathname;
const TOTAL = Number(process.argv[2] ?? 100_000);
/** Requests in flight at once: few enough that the view prints every line instead of summarising a burst. */
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 2);
const RATE = Number(process.env.BENCH_RATE ?? 400);
const UI = process.env.BENCH_UI !== "0";
const BIN = process.env.BENCH_PAYSIM ?? join(ROOT, "bin/paysim.js");
const KEY = "sk_test_bench_live_view_0001";
const PORT = 20_000 + Math.floor(Math.random() * 20_000);

const dir = mkdtempSync(join(tmpdir(), "paysim-live-bench-"));
const socket = join(dir, "tmux.sock");
const config = join(dir, "tmux.conf");
writeFileSync(config, "set -g history-limit 2000\nset -g status off\n");
// Ink shows only finished lines when it believes it runs in CI: the view must see a developer's terminal.
const withoutCi = Object.fromEntries(
  Object.entries(process.env).filter(([name]) => !["CI", "CONTINUOUS_INTEGRATION", "TMUX", "TMUX_PANE", "NO_COLOR"].includes(name)),
);
const tmux = (...args) => execFileSync("tmux", ["-S", socket, "-f", config, ...args], { encoding: "utf8", env: withoutCi });
process.on("exit", () => {
  try {
    tmux("kill-server");
  } catch {
    // already gone
  }
  rmSync(dir, { recursive: true, force: true });
});

const command = [process.execPath, BIN, "start", "--port", String(PORT), "--db", join(dir, "paysim.db"), "--secret-key", KEY, ...(UI ? [] : ["--no-ui"])];
tmux("new-session", "-d", "-s", "bench", "-x", "140", "-y", "40", "--", ...command);

const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
let keys = 0;
function call(method, path, body) {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = request(
      {
        host: "127.0.0.1",
        port: PORT,
        method,
        path,
        agent,
        headers: { Authorization: `Bearer ${KEY}`, ...(payload && { "Content-Type": "application/json", "Idempotency-Key": `bench-${++keys}` }) },
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode));
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
}

async function waitForHealth() {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const status = await call("GET", "/health").catch(() => 0);
    if (status === 200) return;
    if (Date.now() > deadline) throw new Error(`paysim never answered /health:\n${tmux("capture-pane", "-p", "-t", "bench")}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const pid = Number(tmux("list-panes", "-t", "bench", "-F", "#{pane_pid}").trim());
const rssMb = () => {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (name) => Number(new RegExp(`^${name}:\\s+(\\d+)`, "m").exec(status)[1]);
  return { rss: Math.round(kb("VmRSS") / 1024), peak: Math.round(kb("VmHWM") / 1024) };
};

await waitForHealth();
const figures = [{ requests: 0, ...rssMb() }];
let sent = 0;
const started = Date.now();
async function worker() {
  while (sent < TOTAL) {
    sent++;
    // Held to RATE a second: the request due at sent / RATE seconds waits until then.
    const due = started + (sent / RATE) * 1000;
    if (due > Date.now()) await new Promise((resolve) => setTimeout(resolve, due - Date.now()));
    const status = await call("POST", "/v1/payment_intents", { amount: 1000 });
    if (status !== 201) throw new Error(`a creation answered ${status}`);
    if (sent % (TOTAL / 10) === 0) figures.push({ requests: sent, ...rssMb() });
  }
}
await Promise.all(Array.from({ length: CONCURRENCY }, worker));
// Let the view draw what is left, then read once more.
await new Promise((resolve) => setTimeout(resolve, 2000));
const end = rssMb();
const screen = tmux("capture-pane", "-p", "-t", "bench");
const notShown = [...tmux("capture-pane", "-p", "-S", "-", "-t", "bench").matchAll(/… (\d+) events and (\d+) requests not shown/g)];
console.log(
  JSON.stringify(
    {
      bin: BIN,
      ui: UI,
      rate: RATE,
      requests: TOTAL,
      concurrency: CONCURRENCY,
      seconds: Math.round((Date.now() - started) / 1000),
      rssMbAtEnd: end.rss,
      peakRssMb: end.peak,
      figures,
      summarisedInLastScreens: notShown.length,
    },
    null,
    2,
  ),
);
console.log(
  screen
    .split("\n")
    .filter((line) => line.trim())
    .slice(-3)
    .join("\n"),
);

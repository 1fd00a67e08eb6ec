import "./helpers/as-a-terminal.js";
import chalk from "chalk";
import { describe, expect, it, vi } from "vitest";
import { MAX_ATTEMPTS, RETRY_DELAYS_MS } from "../../src/domain/retry-schedule.js";
import { defer, usePaysim, useReceiver } from "../helpers/disposables.js";
import { manualTimers } from "../helpers/manual-timers.js";
import { closedPortUrl } from "../helpers/receiver.js";
import { createIntent, type TestPaysim } from "../helpers/paysim.js";
import { normalise, renderForInspection, renderView, type RenderedView } from "./helpers/live-view.js";
import { displayWidth } from "../../src/ui/width.js";

/** Real time stands still: only advanceClock moves the clock, so countdowns are exact. */
const FROZEN = Date.parse("2026-05-01T12:00:00.000Z");
const frozen = () => FROZEN;

/** `renderView`, unmounted when the test finishes. */
function useView(paysim: TestPaysim, options?: Parameters<typeof renderView>[1]): RenderedView {
  const view = renderView(paysim, options);
  defer(() => view.unmount());
  return view;
}

async function setUp(behaviour: number | "hang", options: Parameters<typeof usePaysim>[0] = {}) {
  const receiver = await useReceiver(behaviour);
  const paysim = await usePaysim({ forwardTo: receiver.url, realNow: frozen, ...options });
  const view = useView(paysim);
  return { receiver, paysim, view };
}

/** What the terminal says of the creations: lines shown, plus those the view counted as not shown. */
function accountFor(history: string) {
  const rows = history.split("\n");
  const requestLines = rows.filter((row) => /^\d\d:\d\d:\d\d {2}POST \/v1\/payment_intents 201 /.test(row));
  const eventIds = rows.filter((row) => /^\d\d:\d\d:\d\d {2}payment_intent\.created /.test(row)).map((row) => /\b(pi_\w+)/.exec(row)![1]!);
  let skippedEvents = 0;
  let skippedRequests = 0;
  for (const [, events, requests] of history.matchAll(/… (\d+) events and (\d+) requests not shown/g)) {
    skippedEvents += Number(events);
    skippedRequests += Number(requests);
  }
  return { requestLines: requestLines.length, eventIds, skippedEvents, skippedRequests };
}

describe("the live view", () => {
  it("shows the banner, then a delivered event with its status and duration, and the request that caused it", async () => {
    const { paysim, view } = await setUp(200);
    const intent = await createIntent(paysim);
    const frame = await view.waitForFrame(/delivered 200/);

    expect(frame).toContain(intent.id);
    expect(normalise(frame)).toMatchInlineSnapshot(`
      "paysim VERSION listening on http://127.0.0.1:PORT
        company   Sandbox Merchant (EUR) [default]
        key       sk_test_…
        webhook   http://127.0.0.1:PORT/hooks  signing secret whsec_…
        database  :memory:
        dashboard http://127.0.0.1:PORT/dashboard/login/…

      12:00:00  POST /v1/payment_intents 201 Nms
      12:00:00  payment_intent.created     pi_…  evt_…
                ✓ delivered 200 in Nms  → http://127.0.0.1:PORT/hooks
      paysim http://127.0.0.1:PORT · clock … · 0 in flight · q to quit"
    `);
  });

  it("counts a failing delivery's retry down in clock time: an advance of 10 s takes 10 s off", async () => {
    const { paysim, view } = await setUp(500);
    await createIntent(paysim);
    await view.waitForFrame("↻ 500, retry 1/6 in 00:30");
    expect(normalise(view.frame())).toContain(`in flight
12:00:00  payment_intent.created     pi_…  evt_…
          ↻ 500, retry 1/6 in 00:30  → http://127.0.0.1:PORT/hooks
paysim http://127.0.0.1:PORT · clock … · 1 in flight · q to quit`);

    await paysim.advanceClock(10);
    await view.waitForFrame("↻ 500, retry 1/6 in 00:20");

    await paysim.advanceClock(20);
    await view.waitForFrame("↻ 500, retry 2/6 in 02:00");
    expect(view.frame()).not.toContain("retry 1/6");
  });

  it("shows a delivery that never answered as given up after the last attempt, with its last status", async () => {
    const { paysim, receiver, view } = await setUp(500);
    await createIntent(paysim);
    await view.waitForFrame("retry 1/6 in 00:30");
    for (const [i, delay] of RETRY_DELAYS_MS.entries()) {
      await paysim.advanceClock(delay / 1000);
      await receiver.waitForRequests(i + 2);
      if (i + 2 < MAX_ATTEMPTS) await view.waitForFrame(`retry ${i + 2}/6 in`);
    }
    const frame = await view.waitForFrame("✗ gave up after 7 attempts (last 500)");
    expect(frame).toMatch(/ · 0 in flight · /);
    expect(frame).not.toContain("in flight\n");
  });

  it("names a network failure instead of a status", async () => {
    await useReceiver(200);
    const paysim = await usePaysim({ forwardTo: await closedPortUrl(), realNow: frozen });
    const view = useView(paysim);
    await createIntent(paysim);
    await view.waitForFrame("↻ connection refused, retry 1/6 in 00:30");
  });

  it("marks the attempts webhook chaos made: a delayed first attempt, then its duplicate", async () => {
    const { paysim, view } = await setUp(200, { chaos: { duplicate: 1, delay_ms: [1000, 1000] } });
    await createIntent(paysim);
    await view.waitForFrame("… sending…");
    await paysim.advanceClock(1);
    await view.waitForFrame(/✓ delivered 200 in \d+ms \(chaos: delayed\)/);
    await paysim.advanceClock(10);
    await view.waitForFrame(/✓ delivered 200 in \d+ms \(chaos: duplicate\)/);
  });

  it("shows 'sending…' for an endpoint whose first attempt has not finished yet", async () => {
    const { paysim, receiver, view } = await setUp("hang");
    await createIntent(paysim);
    await receiver.waitForRequests(1);
    await view.waitForFrame(/… sending…\s+→ http:\/\/127\.0\.0\.1:\d+\/hooks/);
    receiver.release(204);
    await view.waitForFrame("✓ delivered 204");
    expect(view.frame()).toMatch(/ · 0 in flight · /);
  });

  it("lists the API requests: method, path (card numbers masked), status and duration", async () => {
    const { paysim, view } = await setUp(200);
    await paysim.api("GET", "/v1/payment_intents?limit=1");
    await paysim.api("GET", "/v1/payment_intents/4242424242424242");
    await paysim.api("GET", "/v1/events", { key: null });
    const frame = await view.waitForFrame("GET /v1/events 401");
    expect(
      normalise(frame)
        .split("\n")
        .filter((line) => line.includes(" /v1/")),
    ).toEqual(["12:00:00  GET /v1/payment_intents 200 Nms", "12:00:00  GET /v1/payment_intents/************4242 404 Nms", "12:00:00  GET /v1/events 401 Nms"]);
    expect(frame).not.toContain("4242424242424242");
  });

  it("shows a request path's controls and bidirectional characters as visible escapes", async () => {
    const { paysim, view } = await setUp(200);
    await paysim.api("GET", "/v1/%1B]0;PWNED%07%0D%0A%E2%80%AE", { key: null });
    // The request's own line: "401" alone is also in a random port or key of the header.
    const frame = await view.waitForFrame("\\u202e 401");
    expect(normalise(frame).split("\n")).toContain("12:00:00  GET /v1/\\u001b]0;PWNED\\u0007\\u000d\\u000a\\u202e 401 Nms");
    expect(rawFrame(view)).not.toContain("\u001b]0;");
    expect(rawFrame(view)).not.toContain("\u202e");
  });

  it("marks a request a fault rule hit with the fault and the rule", async () => {
    const { paysim, view } = await setUp(200);
    const rule = (await paysim.api("POST", "/v1/sandbox/faults", { body: { fault: "rate_limited", match: { path: "/v1/events" } } })).body;
    await paysim.api("GET", "/v1/events");
    const frame = await view.waitForFrame("GET /v1/events 429");
    expect(
      normalise(frame)
        .split("\n")
        .filter((line) => line.includes("GET /v1/events")),
    ).toEqual([`12:00:00  GET /v1/events 429 Nms fault rate_limited ${rule.id}`]);
  });

  it("stops waiting for an endpoint that is deleted while its delivery is failing", async () => {
    const { paysim, view } = await setUp(500);
    await createIntent(paysim);
    await view.waitForFrame("retry 1/6 in 00:30");
    const endpoint = paysim.forwardEndpoints[0]!;
    expect((await paysim.api("DELETE", `/v1/webhook_endpoints/${endpoint.id}`)).status).toBe(200);
    const frame = await view.waitForFrame("✗ stopped: endpoint deleted after 1 attempt (last 500)");
    expect(frame).toMatch(/ · 0 in flight · /);
  });

  it("cuts every line at the terminal's width, and again after the terminal is narrowed", async () => {
    const receiver = await useReceiver(500);
    const longUrl = `${receiver.url}?${"segment=x&".repeat(20)}`;
    const paysim = await usePaysim({ forwardTo: longUrl, realNow: frozen });
    const view = useView(paysim);
    await createIntent(paysim);
    const wide = await view.waitForFrame("retry 1/6 in 00:30");
    for (const line of wide.split("\n")) expect(line.length).toBeLessThanOrEqual(100);
    expect(wide).toMatch(/→ http:\/\/127\.0\.0\.1:\d+\/hooks\?segment=x.*…$/m);

    Object.defineProperty(view.stdout, "columns", { value: 60, configurable: true });
    view.stdout.emit("resize");
    // The live region (the delivery line and the status line) is redrawn at 60 columns.
    const narrow = await view.waitForFrame(/\n {10}↻ 500, retry 1\/6 in 00:30 {2}→ http:[^\n]{0,15}…\npaysim/);
    const liveRegion = narrow.split("\n").slice(-4);
    for (const line of liveRegion) expect(line.length).toBeLessThanOrEqual(60);
  });

  it("redraws a burst of thousands of bus events in one frame, printing the newest and counting the rest", async () => {
    const timers = manualTimers();
    const paysim = await usePaysim({ realNow: frozen });
    const view = useView(paysim, { throttleMs: 50, timers });
    await view.waitForFrame("q to quit");
    const company = paysim.companies[0]!.company.id;
    const count = 5000;
    for (let i = 0; i < count; i++) {
      const id = `evt_burst${String(i).padStart(19, "0")}`;
      paysim.bus.emit("event.created", {
        id,
        companyId: company,
        type: "payout.created",
        objectId: `po_${i}`,
        requestId: "req_burst",
        createdAt: new Date(FROZEN).toISOString(),
        deliveries: [],
      });
    }
    // Re-renders are throttled: the whole burst waits on one timer (beside the clock's 1 s tick), and makes one frame when it fires.
    await timers.untilPending(2);
    expect(view.frame()).not.toContain("evt_burst");
    timers.advance(50);
    const frame = await view.waitForFrame(`evt_burst${String(count - 1).padStart(19, "0")}`);
    expect(frame).toMatch(/… \d+ events and 0 requests not shown/);
    expect(timers.pending()).toBe(1); // the clock's tick alone
  });

  it("accounts for every one of a burst of 200 creations over HTTP: printed, or counted on the view's 'not shown' line", async () => {
    // No endpoint: each event is finished at once and printed like its request.
    const timers = manualTimers();
    const paysim = await usePaysim({ realNow: frozen });
    const view = useView(paysim, { timers });
    const intents = await Promise.all(Array.from({ length: 200 }, () => createIntent(paysim)));

    // Each frame is drawn when the test moves the throttle's timer, never by real time: the
    // creations have all been answered, so every bus message is in, and one frame takes them all.
    timers.advance(20);
    await timers.settled();
    const seen = accountFor(view.frame());
    expect(seen.requestLines + seen.skippedRequests).toBe(200);
    expect(seen.eventIds.length + seen.skippedEvents).toBe(200);
    // Each event printed once, and only events of this burst.
    expect(new Set(seen.eventIds).size).toBe(seen.eventIds.length);
    const created = new Set(intents.map((intent: { id: string }) => intent.id));
    for (const id of seen.eventIds) expect(created.has(id)).toBe(true);
    expect(view.frame()).toMatch(/ · 0 in flight · q to quit$/);
  });

  it("re-reads the clock each second of its timers: the status line ticks when they move, not with the machine's time", async () => {
    const timers = manualTimers();
    // Real time, as the clock scales it, is the timers' too: a second of them is a second of clock.
    const paysim = await usePaysim({ realNow: () => FROZEN + timers.now() });
    const view = useView(paysim, { timers });
    await view.waitForFrame("clock 2026-05-01 12:00:00Z");
    await timers.untilPending(1); // the tick is set
    timers.advance(999);
    await timers.settled();
    expect(view.frame()).toContain("clock 2026-05-01 12:00:00Z");
    timers.advance(1);
    await timers.settled();
    expect(view.frame()).toContain("clock 2026-05-01 12:00:01Z");
    timers.advance(1000);
    await timers.settled();
    expect(view.frame()).toContain("clock 2026-05-01 12:00:02Z");
  });

  it("prints the request before the event it made, though the bus announces the event first", async () => {
    const paysim = await usePaysim({ realNow: frozen });
    const view = useView(paysim);
    const intent = await createIntent(paysim);
    const frame = await view.waitForFrame(intent.id);
    const rows = frame.split("\n");
    const requestRow = rows.findIndex((row) => /^12:00:00 {2}POST \/v1\/payment_intents 201 /.test(row));
    const eventRow = rows.findIndex((row) => row.includes(intent.id));
    expect(requestRow).toBeGreaterThan(-1);
    expect(eventRow).toBe(requestRow + 1);
  });

  it("marks a later day with a day line, and dates an in-flight event of an earlier day", async () => {
    const { paysim, view } = await setUp(500);
    const intent = await createIntent(paysim);
    await view.waitForFrame("retry 1/6 in 00:30");
    // 13 hours on: 01:00 the next day.
    await paysim.advanceClock(13 * 3600);
    await paysim.api("GET", "/v1/events?limit=1");
    const frame = await view.waitForFrame("GET /v1/events 200");
    const rows = frame.split("\n");
    const dayRow = rows.indexOf("── 2026-05-02 ──");
    expect(dayRow).toBeGreaterThan(-1);
    expect(rows[dayRow + 1]).toMatch(/^01:00:0\d {2}GET \/v1\/events 200 /);
    // The event made the day before, still in flight, shows its date.
    expect(rows.filter((row) => row.startsWith(`2026-05-01 12:00:00  payment_intent.created     ${intent.id}`))).toHaveLength(1);
    expect(rows.filter((row) => row.startsWith("── "))).toHaveLength(1);
  });

  it("cuts a line with wide characters (CJK) at the terminal's display width", async () => {
    const paysim = await usePaysim({ realNow: frozen });
    const view = useView(paysim, { columns: 60 });
    const path = `/v1/payment_intents/${"日本語の支払い".repeat(8)}`;
    await paysim.api("GET", encodeURI(path));
    const frame = await view.waitForFrame("GET /v1/payment_intents/日本語");
    const row = frame.split("\n").find((line) => line.includes("GET /v1/payment_intents/"))!;
    expect(row.endsWith("…")).toBe(true);
    expect(displayWidth(row)).toBeLessThanOrEqual(60);
    expect(displayWidth(row)).toBeGreaterThanOrEqual(59);
  });

  it("keeps no printed line inside Ink: thousands of lines later, Ink's own output holds the live region only", async () => {
    const paysim = await usePaysim({ realNow: frozen });
    // Ink's test renderer writes, on every frame, all that Ink keeps: its static output and the live region.
    const rendered = renderForInspection(paysim);
    defer(() => rendered.unmount());
    for (let i = 0; i < 300; i++) await paysim.api("GET", `/v1/payment_intents/pi_probe_${i}`);
    await vi.waitFor(() => expect(rendered.frames.some((frame) => frame.includes("pi_probe_299 404"))).toBe(true), { timeout: 10_000 });
    // The next frame Ink draws (the clock moved): all it holds is the live region.
    await paysim.advanceClock(1);
    await vi.waitFor(() => expect(rendered.frames.some((frame) => frame.includes("clock 2026-05-01 12:00:01Z"))).toBe(true), { timeout: 10_000 });
    const frame = rendered.frames.find((candidate) => candidate.includes("clock 2026-05-01 12:00:01Z"))!;
    expect(frame).not.toContain("pi_probe_");
    expect(frame).not.toContain("listening on");
    expect(frame.trimEnd().split("\n")).toHaveLength(1);
  });

  it("asks to quit on q and on Ctrl-C, and not on other keys", async () => {
    const paysim = await usePaysim({ realNow: frozen });
    const view = useView(paysim);
    await view.waitForFrame("q to quit");
    view.stdin.write("x");
    view.stdin.write("q");
    view.stdin.write("\u0003");
    await vi.waitFor(() => expect(view.quitRequests()).toBe(2));
  });

  it("uses colours only when told to", async () => {
    const level = chalk.level;
    chalk.level = 1;
    defer(() => (chalk.level = level));
    const paysim = await usePaysim({ realNow: frozen });
    const plain = useView(paysim, { colour: false });
    const coloured = useView(paysim, { colour: true });
    await paysim.api("GET", "/v1/payment_intents");
    await plain.waitForFrame("GET /v1/payment_intents 200");
    await coloured.waitForFrame("GET /v1/payment_intents 200");
    // Styles (SGR sequences); Ink's own cursor sequences are not styles.
    // eslint-disable-next-line no-control-regex
    expect(rawFrame(plain)).not.toMatch(/\u001b\[[0-9;]*m/);
    expect(rawFrame(coloured)).toContain("\u001b[32m200\u001b[39m");
  });
});

function rawFrame(view: RenderedView): string {
  return view.raw();
}

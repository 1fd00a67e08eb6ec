import { existsSync, mkdirSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { defer, suiteScope, usePaysim, useReceiver } from "../helpers/disposables.js";
import { createIntent, freshKey, type TestPaysim } from "../helpers/paysim.js";

/** Debian's Chromium: CI's .ci/run installs it; a laptop without it skips this file, saying so. */
const CHROMIUM = "/usr/bin/chromium";
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) {
  console.warn(`test/browser/dashboard.test.ts: SKIPPED — no Chromium at ${CHROMIUM}. Install it (apt-get install -y chromium) to run the browser tests.`);
}

/**
 * Where the screenshots go, for a person to look at after a run: a temporary folder, or
 * docs/images when DASHBOARD_SCREENSHOTS=docs/images (how the docs' pictures are made).
 */
const SCREENSHOTS = process.env.DASHBOARD_SCREENSHOTS ?? join(tmpdir(), "paysim-dashboard-screenshots");

const KEY = "sk_test_dashboard_browser_0001";
/** A session's pages: /dashboard/<its random scope>/… */
const SESSION_PAGE = /\/dashboard\/[0-9A-Za-z]{22}\/events$/;
const SIZES = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } } as const;

describe.skipIf(!hasChromium)("the dashboard in headless Chromium", () => {
  const thisSuite = suiteScope();
  let paysim: TestPaysim;
  let browser: Browser;
  /** Console messages of every page, to catch CSP violations (a style or script the policy blocked). */
  const consoleMessages: string[] = [];

  beforeAll(async () => {
    paysim = await usePaysim({ secretKey: KEY, payouts: "manual" }, thisSuite);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    });
    defer(() => browser.close(), thisSuite);
    mkdirSync(SCREENSHOTS, { recursive: true });
  });

  afterEach(() => {
    const violations = consoleMessages.filter((text) => /Content Security Policy/i.test(text));
    consoleMessages.length = 0;
    expect(violations).toEqual([]);
  });

  async function newContext(options: { javaScriptEnabled?: boolean; size?: keyof typeof SIZES } = {}): Promise<BrowserContext> {
    const context = await browser.newContext({ javaScriptEnabled: options.javaScriptEnabled ?? true, viewport: SIZES[options.size ?? "desktop"] });
    defer(() => context.close());
    context.on("console", (message) => consoleMessages.push(message.text()));
    return context;
  }

  /** Opens a one-time link and presses its Sign in button, as a developer would from `paysim start`'s banner. */
  async function signInByLink(page: Page, link = paysim.dashboardLoginUrl()) {
    await page.goto(link);
    await page.getByRole("button", { name: "Sign in to Sandbox Merchant" }).click();
    await page.waitForURL(SESSION_PAGE);
  }

  /** A page signed in through the one-time link. */
  async function signedInPage(options: Parameters<typeof newContext>[0] = {}): Promise<Page> {
    const page = await (await newContext(options)).newPage();
    await signInByLink(page);
    return page;
  }

  /** The session's own base of a signed-in page: its URL up to /events. */
  const baseOf = (page: Page) => page.url().replace(/\/events$/, "");

  async function createPayout(body: object = {}) {
    const response = await paysim.api("POST", "/v1/payouts", {
      body: { amount: 25_000, currency: "EUR", destination_type: "card", destination_token: "tok_card_visa", description: "Weekly settlement", ...body },
      idempotencyKey: freshKey(),
    });
    expect(response.status).toBe(201);
    return response.body;
  }

  it("signs in by key through the form, and says so when the key is wrong", async () => {
    const page = await (await newContext({ javaScriptEnabled: false })).newPage();
    await page.goto(`${paysim.url}/dashboard`);
    await page.waitForURL(`${paysim.url}/dashboard/login`);
    await page.getByLabel("Secret key").fill("sk_test_wrong");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("alert").textContent()).resolves.toContain("That is not a secret key of this paysim.");
    await page.getByLabel("Secret key").fill(KEY);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(SESSION_PAGE);
    await expect(page.getByText("Signed in to Sandbox Merchant").isVisible()).resolves.toBe(true);
    // Without JavaScript nothing is live, and the page says how to see new events.
    await expect(page.getByText("Reload to see new events.").isVisible()).resolves.toBe(true);
    await expect(page.getByText("Live: new events appear here as they happen").isVisible()).resolves.toBe(false);
  });

  it("the one-time link opened (twice) only shows its button; the button signs in once; the link opened again is refused", async () => {
    const link = paysim.dashboardLoginUrl();
    const preview = await (await newContext({ javaScriptEnabled: false })).newPage();
    for (const _ of [1, 2]) {
      expect((await preview.goto(link))?.status()).toBe(200);
      await expect(preview.getByRole("button", { name: "Sign in to Sandbox Merchant" }).isVisible()).resolves.toBe(true);
    }
    const page = await (await newContext()).newPage();
    await signInByLink(page, link);
    await expect(page.getByText("Signed in to Sandbox Merchant").isVisible()).resolves.toBe(true);
    // The page shown before the link was used: its button no longer signs in.
    await preview.getByRole("button", { name: "Sign in to Sandbox Merchant" }).click();
    await expect(preview.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("This sign-in link no longer works");
    const other = await (await newContext()).newPage();
    const again = await other.goto(link);
    expect(again?.status()).toBe(403);
    await expect(other.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("This sign-in link no longer works");
  });

  it("a signed-in browser typing /dashboard gets the sign-in form, and its session still opens under its own address", async () => {
    const page = await signedInPage({ javaScriptEnabled: false });
    const events = page.url();
    await page.goto(`${paysim.url}/dashboard`);
    await page.waitForURL(`${paysim.url}/dashboard/login`);
    await expect(page.getByLabel("Secret key").isVisible()).resolves.toBe(true);
    expect((await page.goto(events))?.status()).toBe(200);
    await expect(page.getByText("Signed in to Sandbox Merchant").isVisible()).resolves.toBe(true);
  });

  it("a server on another port of the host, visited by a signed-in browser, gets no paysim cookie (127.0.0.1 and localhost)", async () => {
    const other = await useCookieRecorder();
    for (const host of ["127.0.0.1", "localhost"]) {
      const context = await newContext();
      // Control: a cookie of the host that any port gets, so "no paysim cookie" below means something.
      await context.addCookies([{ name: "control", value: host, domain: host, path: "/dashboard" }]);
      const page = await context.newPage();
      const paysimHere = paysim.url.replace("127.0.0.1", host);
      await signInByLink(page, paysim.dashboardLoginUrl().replace("127.0.0.1", host));
      expect(new URL(page.url()).host).toBe(new URL(paysimHere).host);
      const scope = new URL(page.url()).pathname.split("/")[2]!;
      const wrongScope = `${scope.slice(0, -1)}${scope.endsWith("A") ? "B" : "A"}`;
      // The other server's page asks its own origin for the dashboard's paths, with credentials, as the attack does.
      const paths = [
        "/dashboard",
        "/dashboard/",
        "/dashboard/events",
        "/dashboard/login",
        `/dashboard/${"A".repeat(22)}/events`,
        `/dashboard/${wrongScope}/events`,
        `/dashboard/${wrongScope}/`,
      ];
      const origin = `http://${host}:${other.port}`;
      await page.goto(`${origin}/attack?paths=${encodeURIComponent(JSON.stringify(paths))}`);
      await page.locator("#done").waitFor({ state: "attached" });
      for (const path of paths) expect((await page.goto(origin + path))?.status(), path).toBe(200);

      const seen = other.requests.filter((request) => request.host === `${host}:${other.port}` && request.path.startsWith("/dashboard"));
      expect(seen.length, host).toBeGreaterThanOrEqual(paths.length * 3);
      for (const request of seen) {
        expect(request.cookie, `${host} ${request.path}`).toContain(`control=${host}`);
        expect(request.cookie, `${host} ${request.path}`).not.toMatch(/paysim/);
      }
      await context.close();
    }
  });

  it("shows an event created through the API without a reload, and updates its delivery in place", async () => {
    const receiver = await useReceiver(200);
    const endpoint = (await paysim.api("POST", "/v1/webhook_endpoints", { body: { url: receiver.url } })).body;
    defer(() => paysim.api("DELETE", `/v1/webhook_endpoints/${endpoint.id}`));
    const page = await signedInPage();
    await page.locator('[data-live="on"]').waitFor();
    await expect(page.getByText("Live: new events appear here as they happen").isVisible()).resolves.toBe(true);
    await page.evaluate("window.notReloaded = true");
    const intent = await createIntent(paysim, { amount: 1999, description: "Live row" });
    const event = (await paysim.api("GET", "/v1/events?limit=1")).body.data[0];
    expect(event.data.id).toBe(intent.id);
    const row = page.locator(`#event-${event.id}`);
    await row.waitFor();
    await expect(row.textContent()).resolves.toContain("payment_intent.created");
    await page.locator(`#deliveries-${event.id}`, { hasText: "succeeded · 200" }).waitFor();
    await expect(page.evaluate("window.notReloaded")).resolves.toBe(true);
  });

  it("Resend on an event's page makes a new delivery, shown on the page", async () => {
    const receiver = await useReceiver(200);
    const endpoint = (await paysim.api("POST", "/v1/webhook_endpoints", { body: { url: receiver.url } })).body;
    defer(() => paysim.api("DELETE", `/v1/webhook_endpoints/${endpoint.id}`));
    await createIntent(paysim, { amount: 500 });
    await receiver.waitForRequests(1);
    const event = (await paysim.api("GET", "/v1/events?limit=1")).body.data[0];
    const page = await signedInPage({ javaScriptEnabled: false });
    const eventPage = `${baseOf(page)}/events/${event.id}`;
    await page.goto(eventPage);
    await page.getByRole("button", { name: "Resend" }).click();
    await page.waitForURL(eventPage);
    await expect(page.getByRole("status").textContent()).resolves.toContain("Resent");
    await receiver.waitForRequests(2);
    const deliveries = (await paysim.api("GET", `/v1/events/${event.id}`)).body.deliveries.filter((d: any) => d.endpoint_id === endpoint.id);
    expect(deliveries).toHaveLength(2);
    await page.reload();
    await expect(page.locator(".delivery").count()).resolves.toBe(2);
  });

  it("a payout's move button and a clock button change what the API returns", async () => {
    const payout = await createPayout();
    const page = await signedInPage({ javaScriptEnabled: false });
    await page.goto(`${baseOf(page)}/payouts/${payout.id}`);
    await page.getByRole("button", { name: "Move to processing" }).click();
    await expect(page.getByRole("status").textContent()).resolves.toBe("Moved to processing.");
    expect((await paysim.api("GET", `/v1/payouts/${payout.id}`)).body.status).toBe("processing");

    const before = (await paysim.api("GET", "/v1/sandbox/clock")).body.offset_seconds;
    await page.getByRole("link", { name: "Clock" }).click();
    await page.getByRole("button", { name: "Advance the clock by 10 minutes" }).click();
    await expect(page.getByRole("status").textContent()).resolves.toContain("Advanced 600 s");
    expect((await paysim.api("GET", "/v1/sandbox/clock")).body.offset_seconds).toBe(before + 600);
  });

  it("a fault rule added on the Faults page makes the matching API call fail as the rule says; Remove ends it", async () => {
    const page = await signedInPage();
    await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Faults" }).click();
    await page.waitForURL(/\/dashboard\/[0-9A-Za-z]{22}\/faults$/);
    await page.locator("#fault-kind").selectOption("rate_limited");
    await page.locator("#fault-method").selectOption("POST");
    await page.locator("#fault-path").fill("/v1/payouts");
    await page.locator("#fault-times").fill("2");
    await page.getByRole("button", { name: "Add fault rule" }).click();
    await expect(page.getByRole("status").textContent()).resolves.toMatch(/^Added flt_\w+: rate_limited on POST \/v1\/payouts, 2 times\.$/);
    const [rule] = (await paysim.api("GET", "/v1/sandbox/faults")).body.data;
    defer(() => paysim.api("DELETE", "/v1/sandbox/faults"));

    const body = { amount: 100, currency: "EUR", destination_type: "card", destination_token: "tok_card_visa" };
    const hit = await paysim.api("POST", "/v1/payouts", { body, idempotencyKey: freshKey() });
    expect(hit.status).toBe(429);
    expect(hit.headers.get("retry-after")).toBe("1");
    expect((await paysim.api("GET", "/v1/payouts?limit=1")).status).toBe(200); // GET is not matched
    await page.reload();
    await expect(page.locator(`#fault-${rule.id}`).textContent()).resolves.toContain("1 of 2");

    await page.getByRole("button", { name: `Remove the fault rule ${rule.id}` }).click();
    await expect(page.getByRole("status").textContent()).resolves.toBe(`Removed ${rule.id}.`);
    expect((await paysim.api("POST", "/v1/payouts", { body, idempotencyKey: freshKey() })).status).toBe(201);
  });

  it("the Report page says the client made none of the watched mistakes when it made none, at 1280 and 390 wide", async () => {
    expect((await paysim.api("DELETE", "/v1/sandbox/coverage")).status).toBe(200);
    expect(
      (await paysim.api("POST", "/v1/payment_intents", { body: { amount: 1200, description: "Right first time" }, idempotencyKey: freshKey() })).status,
    ).toBe(201);
    for (const size of Object.keys(SIZES) as (keyof typeof SIZES)[]) {
      const page = await signedInPage({ size });
      await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Report" }).click();
      await page.waitForURL(/\/report$/);
      await expectFits(page, `report without findings at ${size}`);
      const findings = page.getByRole("region", { name: "Findings" });
      await expect(findings.textContent()).resolves.toContain("No findings. This company's client made none of the mistakes paysim watches for");
      await expect(page.getByRole("region", { name: "Operations" }).textContent()).resolves.toContain("createPaymentIntent");
      await page.screenshot({ path: join(SCREENSHOTS, `dashboard-report-none-${size}.png`), fullPage: true });
    }
  });

  it("the Report page shows a creation retried under a new key after a lost answer, with its request ids, and what a request's path holds as text", async () => {
    expect((await paysim.api("DELETE", "/v1/sandbox/coverage")).status).toBe(200);
    const rule = await paysim.api("POST", "/v1/sandbox/faults", {
      body: { fault: "lost_response", match: { method: "POST", path: "/v1/payment_intents" }, times: 1 },
    });
    expect(rule.status).toBe(201);
    const order = { amount: 4200, description: "Order 42" };
    await expect(paysim.api("POST", "/v1/payment_intents", { body: order, idempotencyKey: freshKey() })).rejects.toThrow();
    const again = await paysim.api("POST", "/v1/payment_intents", { body: order, idempotencyKey: freshKey() });
    expect(again.status).toBe(201);
    // The same 404 three times, on a path that decodes to markup: the page must show it as text.
    for (let i = 0; i < 3; i++) expect((await paysim.api("GET", "/v1/payment_intents/pi_%3Cimg%20src=x%20id=injected%3E")).status).toBe(404);

    for (const size of Object.keys(SIZES) as (keyof typeof SIZES)[]) {
      const page = await signedInPage({ size });
      await page.goto(`${baseOf(page)}/report`);
      await expectFits(page, `report with findings at ${size}`);
      const finding = page.getByRole("region", { name: "new_key_on_retry" });
      await expect(finding.getByRole("heading", { level: 2 }).textContent()).resolves.toBe(
        "A creation that got no answer or a 5xx was retried under a new Idempotency-Key",
      );
      const text = await finding.textContent();
      expect(text).toContain("error");
      expect(text).toContain("once, first seen");
      expect(text).toContain("Keep the Idempotency-Key of a creation until it has an answer");
      expect(text).toContain(again.body.request_id);
      expect(text).toContain("which got no answer");
      const retried = page.getByRole("region", { name: "retried_client_error" });
      await expect(retried.textContent()).resolves.toContain("GET /v1/payment_intents/pi_<img src=x id=injected> got 404 3 times in a row");
      await expect(page.locator("#injected").count()).resolves.toBe(0);
      // Findings come first: the error's card is above the coverage's summary.
      const [findingTop, coverageTop] = await Promise.all([finding.boundingBox(), page.getByRole("region", { name: "Summary" }).boundingBox()]);
      expect(findingTop!.y).toBeLessThan(coverageTop!.y);
      // The first screen (the findings): what the docs show; the coverage below it is the Coverage page's.
      await page.screenshot({ path: join(SCREENSHOTS, `dashboard-report-${size}.png`) });
    }
  });

  it("a form posted from another site is refused with the 403 page", async () => {
    const page = await signedInPage({ javaScriptEnabled: false });
    // A page of another origin (a data: URL) posting to the dashboard: the browser sends Origin: null.
    const html = `<form method="post" action="${baseOf(page)}/clock/advance"><input name="seconds" value="30"><button>go</button></form>`;
    await page.goto(`data:text/html,${encodeURIComponent(html)}`);
    await page.getByRole("button", { name: "go" }).click();
    await page.waitForLoadState();
    await expect(page.locator("h1").first().textContent()).resolves.toBe("This form could not be verified");
  });

  it("every page fits 1280×800 and 390×844 without sideways scrolling, with its heading and navigation visible", async () => {
    const seeded = await seed();
    const pages: Record<string, string> = {
      events: "/events",
      event: `/events/${seeded.failingEvent}`,
      "payment-intents": "/payment_intents",
      "payment-intent": `/payment_intents/${seeded.intent}`,
      payouts: "/payouts",
      payout: `/payouts/${seeded.payout}`,
      clock: "/clock",
      "webhook-endpoints": "/webhook_endpoints",
      faults: "/faults",
      coverage: "/coverage",
    };
    for (const size of Object.keys(SIZES) as (keyof typeof SIZES)[]) {
      const page = await signedInPage({ size });
      const base = baseOf(page);
      for (const [name, path] of Object.entries(pages)) {
        const response = await page.goto(base + path);
        expect(response?.status(), path).toBe(200);
        if (name === "events") await page.locator('[data-live="on"]').waitFor(); // the live badge shows once the stream is open
        await expectFits(page, `${name} at ${size}`);
        await expect(page.getByRole("navigation", { name: "Dashboard" }).isVisible()).resolves.toBe(true);
        await page.screenshot({ path: join(SCREENSHOTS, `dashboard-${name}-${size}.png`), fullPage: true });
      }
      const signIn = await (await newContext({ size })).newPage();
      await signIn.goto(`${paysim.url}/dashboard/login`);
      await expectFits(signIn, `sign-in at ${size}`);
      await signIn.screenshot({ path: join(SCREENSHOTS, `dashboard-sign-in-${size}.png`), fullPage: true });
      await signIn.goto(paysim.dashboardLoginUrl());
      await expectFits(signIn, `the one-time link's page at ${size}`);
      await signIn.screenshot({ path: join(SCREENSHOTS, `dashboard-link-sign-in-${size}.png`), fullPage: true });
    }
  }, 120_000);

  it("the Instances page lists this company's instances; Open its dashboard leads, through a fresh link, into that instance's own dashboard", async () => {
    const started = [];
    for (const body of [
      { name: "Worker 1", secret_key: "sk_test_worker_1" },
      { name: "Worker 2", forward_to: ["http://127.0.0.1:9/hooks"], webhook_secret: "whsec_worker_2" },
    ]) {
      const answer = await paysim.api("POST", "/v1/sandbox/instances", { body, idempotencyKey: freshKey() });
      expect(answer.status).toBe(201);
      started.push(answer.body);
      defer(() => paysim.api("DELETE", `/v1/sandbox/instances/${answer.body.id}`));
    }
    for (const size of Object.keys(SIZES) as (keyof typeof SIZES)[]) {
      const page = await signedInPage({ size });
      await page.goto(`${baseOf(page)}/instances`);
      await expectFits(page, `instances at ${size}`);
      for (const instance of started) await expect(page.locator(`#instance-${instance.id}`).textContent()).resolves.toContain(instance.url);
      await page.screenshot({ path: join(SCREENSHOTS, `dashboard-instances-${size}.png`), fullPage: true });
    }
    const page = await signedInPage();
    await page.goto(`${baseOf(page)}/instances`);
    await page.getByRole("button", { name: `Open the dashboard of ${started[0].url}` }).click();
    await page.getByRole("link", { name: "Open its dashboard" }).click();
    await page.getByRole("button", { name: "Sign in to Worker 1" }).click();
    await page.waitForURL(new RegExp(`^${started[0].url}/dashboard/[0-9A-Za-z]{22}/events$`));
    await expect(page.locator("body").textContent()).resolves.toContain("Worker 1");
  }, 60_000);

  /** No sideways scrolling, the page's heading in view, and the focus ring of the first control drawn. */
  async function expectFits(page: Page, what: string) {
    // (Page code is passed as source text: this project's TypeScript has no DOM types.)
    const overflow = await page.evaluate("document.documentElement.scrollWidth - window.innerWidth");
    expect(overflow, what).toBeLessThanOrEqual(0);
    await expect(page.locator("h1").first().isVisible(), what).resolves.toBe(true);
    const stylesApplied = await page.evaluate(`getComputedStyle(document.querySelector("header.top")).backgroundColor`);
    expect(stylesApplied, what).toBe("rgb(26, 31, 54)");
  }

  /** Objects in several states, a delivered and a failing endpoint: what the screenshots show. */
  async function seed() {
    const ok = await useReceiver(200);
    const failing = await useReceiver(503);
    await paysim.api("POST", "/v1/webhook_endpoints", { body: { url: ok.url } });
    await paysim.api("POST", "/v1/webhook_endpoints", { body: { url: failing.url, enabled_events: ["payout.created", "payout.failed", "payout.returned"] } });
    const intent = await createIntent(paysim, { amount: 4999, description: "Wireless headphones, order #1042" });
    await createIntent(paysim, { amount: 1250, currency: "USD", capture_method: "manual", description: "Gift card" });
    await createIntent(paysim, { amount: 120_000, currency: "JPY" });
    const payout = await createPayout({ amount: 80_000 });
    await createPayout({ amount: 1500, destination_type: "account", destination_token: "tok_account_fr", description: "Refund batch" });
    await failing.waitForRequests(1);
    await ok.waitForRequests(5); // three payment_intent.created, two payout.created
    const failingEvent = (await paysim.api("GET", "/v1/events?type=payout.created&limit=1")).body.data[0].id;
    await paysim.api("POST", `/v1/payment_intents/${intent.id}/authorize`, { body: { payment_method: "pm_card_visa" }, idempotencyKey: freshKey() });
    // An endpoint with chaos, and fault rules for the Faults page: added last, so they touch nothing above.
    await paysim.api("POST", "/v1/webhook_endpoints", {
      body: { url: "http://127.0.0.1:9/chaos-drill", chaos: { duplicate: 0.2, reorder: 0.1, delay_ms: [0, 3000], seed: 42 } },
    });
    defer(() => paysim.api("DELETE", "/v1/sandbox/faults"));
    for (const rule of [
      { fault: "lost_response", match: { method: "POST", path: "/v1/payment_intents/*/capture" } },
      { fault: "rate_limited", match: { path: "/v1/payouts" }, times: 3, probability: 0.5, seed: 7 },
      { fault: "latency", match: { method: "GET", path: "/v1/events/*" }, times: 20, latency_ms: 1500 },
    ]) {
      expect((await paysim.api("POST", "/v1/sandbox/faults", { body: rule })).status).toBe(201);
    }
    return { intent: intent.id, payout: payout.id, failingEvent };
  }

  /**
   * Another app's server on a free port of the host: it answers every path, records each
   * request's Host, path and Cookie header, and its /attack page asks its own origin for
   * the given paths (fetch with credentials, and as images) before marking itself #done.
   */
  async function useCookieRecorder() {
    const requests: { host: string; path: string; cookie: string }[] = [];
    const attackPage = (paths: string[]) => `<!DOCTYPE html><title>another app</title><script>
      const paths = ${JSON.stringify(paths)};
      const image = (path) => new Promise((done) => { const img = new Image(); img.onload = img.onerror = done; img.src = path; });
      Promise.all(paths.flatMap((path) => [fetch(path, { credentials: "include" }).catch(() => {}), image(path)]))
        .then(() => { const done = document.createElement("p"); done.id = "done"; document.body.append(done); });
    </script>`;
    const server = createServer((request, response) => {
      const url = new URL(request.url ?? "/", "http://recorder");
      requests.push({ host: request.headers.host ?? "", path: url.pathname, cookie: request.headers.cookie ?? "" });
      response.setHeader("Content-Type", "text/html; charset=utf-8");
      response.end(url.pathname === "/attack" ? attackPage(JSON.parse(url.searchParams.get("paths") ?? "[]")) : "ok");
    });
    await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening));
    defer(() => new Promise<void>((closed) => server.close(() => closed())));
    return { port: (server.address() as AddressInfo).port, requests };
  }
});

import { existsSync } from "node:fs";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { defer, suiteScope, usePaysim } from "../helpers/disposables.js";
import { createIntent, type TestPaysim } from "../helpers/paysim.js";

/** Debian's Chromium: CI's .ci/run installs it; a laptop without it skips this file, saying so. */
const CHROMIUM = "/usr/bin/chromium";
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) {
  console.warn(`test/browser/checkout.test.ts: SKIPPED — no Chromium at ${CHROMIUM}. Install it (apt-get install -y chromium) to run the browser tests.`);
}

/** Screenshots of the page, for a human to look at after a run. */
const SCREENSHOTS = "/tmp";

describe.skipIf(!hasChromium)("the checkout page in headless Chromium, with JavaScript off", () => {
  const thisSuite = suiteScope();
  let paysim: TestPaysim;
  let browser: Browser;
  let context: BrowserContext;
  /** Console messages of every page, to catch CSP violations (a style the policy blocked). */
  const consoleMessages: string[] = [];

  beforeAll(async () => {
    paysim = await usePaysim({}, thisSuite);
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
    // The page must work with plain form posts: JavaScript is off for every test.
    context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1280, height: 900 } });
    context.on("console", (message) => consoleMessages.push(message.text()));
  });

  afterEach(() => {
    // Every page styled itself within its Content-Security-Policy: nothing was blocked.
    const violations = consoleMessages.filter((text) => /Content Security Policy/i.test(text));
    consoleMessages.length = 0;
    expect(violations).toEqual([]);
  });

  async function openCheckout(body: object = { amount: 4999, description: "Wireless headphones, order #1042" }): Promise<{ page: Page; intent: any }> {
    const intent = await createIntent(paysim, body);
    const page = await context.newPage();
    defer(() => page.close());
    const response = await page.goto(intent.checkout_url);
    expect(response?.status()).toBe(200);
    return { page, intent };
  }

  async function fillCard(page: Page, card: { number: string; expiry?: string; cvc?: string }) {
    await page.getByLabel("Card number").fill(card.number);
    await page.getByLabel("Expiry date").fill(card.expiry ?? "12/34");
    await page.getByLabel("Security code").fill(card.cvc ?? "123");
  }

  async function stateOf(id: string) {
    const response = await paysim.api("GET", `/v1/payment_intents/${id}`);
    expect(response.status).toBe(200);
    return response.body;
  }

  it("shows a styled checkout (the CSP nonce lets its stylesheet apply) at desktop and phone widths", async () => {
    const { page, intent } = await openCheckout();
    await expect(page.title()).resolves.toBe("Pay €49.99 to Sandbox Merchant");
    await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("Pay Sandbox Merchant");
    await expect(page.getByRole("button", { name: "Pay €49.99" }).isVisible()).resolves.toBe(true);
    await expect(page.getByRole("button", { name: "Cancel payment" }).isVisible()).resolves.toBe(true);
    await expect(page.locator("#card-number").getAttribute("autocomplete")).resolves.toBe("cc-number");
    // The inline stylesheet applied: the Pay button has its accent colour, not the browser default.
    // (Page code is passed as source text: this project's TypeScript has no DOM types.)
    const payColour = await page.evaluate(`getComputedStyle(document.querySelector("button[type=submit]")).backgroundColor`);
    expect(payColour).toBe("rgb(79, 70, 229)");
    await page.screenshot({ path: `${SCREENSHOTS}/checkout-desktop.png`, fullPage: true });

    await page.setViewportSize({ width: 375, height: 812 });
    const overflow = await page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth");
    expect(overflow).toBe(0);
    await page.screenshot({ path: `${SCREENSHOTS}/checkout-mobile.png`, fullPage: true });
    expect((await stateOf(intent.id)).state).toBe("created");
  });

  it("paying with a succeeding card captures the intent and shows the success page", async () => {
    const { page, intent } = await openCheckout();
    await fillCard(page, { number: "4242 4242 4242 4242" });
    await page.getByRole("button", { name: "Pay €49.99" }).click();
    await page.waitForURL(intent.checkout_url);
    await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("Payment successful");
    await expect(page.getByText("Visa •••• 4242").isVisible()).resolves.toBe(true);
    expect(await stateOf(intent.id)).toMatchObject({ state: "captured", card: { last4: "4242", brand: "visa" } });
    await page.screenshot({ path: `${SCREENSHOTS}/checkout-result.png`, fullPage: true });
  });

  it("paying with a declining card fails the intent with its reason and says so", async () => {
    const { page, intent } = await openCheckout({ amount: 1000 });
    await fillCard(page, { number: "4000 0000 0000 9995" });
    await page.getByRole("button", { name: "Pay €10.00" }).click();
    await page.waitForURL(intent.checkout_url);
    await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("Payment failed");
    await expect(page.getByText("Your card has insufficient funds.").isVisible()).resolves.toBe(true);
    expect(await stateOf(intent.id)).toMatchObject({ state: "failed", failure_reason: "insufficient_funds", card: { last4: "9995" } });
    await page.screenshot({ path: `${SCREENSHOTS}/checkout-result-failed.png`, fullPage: true });
  });

  it("an invalid number shows a form error on the field, keeps the intent created, and a corrected form then pays", async () => {
    const { page, intent } = await openCheckout({ amount: 1000, capture_method: "manual" });
    await fillCard(page, { number: "4242 4242 4242 4241" });
    await page.getByRole("button", { name: "Pay €10.00" }).click();
    await page.waitForLoadState();
    await expect(page.getByRole("alert").textContent()).resolves.toContain("Your card number is invalid.");
    const numberField = page.getByLabel("Card number");
    await expect(numberField.getAttribute("aria-invalid")).resolves.toBe("true");
    await expect(numberField.inputValue()).resolves.toBe("");
    // autofocus (no script) puts the customer on the field to fix.
    await expect(page.evaluate("document.activeElement?.id")).resolves.toBe("card-number");
    await page.screenshot({ path: `${SCREENSHOTS}/checkout-error.png`, fullPage: true });
    expect(await stateOf(intent.id)).toMatchObject({ state: "created", card: null });

    await fillCard(page, { number: "5555 5555 5555 4444" });
    await page.getByRole("button", { name: "Pay €10.00" }).click();
    await page.waitForURL(intent.checkout_url);
    await expect(page.getByText("Authorized, awaiting capture by the merchant").isVisible()).resolves.toBe(true);
    expect(await stateOf(intent.id)).toMatchObject({ state: "authorized", card: { last4: "4444", brand: "mastercard" } });
  });

  it("Cancel cancels the intent and shows the canceled page", async () => {
    const { page, intent } = await openCheckout({ amount: 1000 });
    await page.getByRole("button", { name: "Cancel payment" }).click();
    await page.waitForURL(intent.checkout_url);
    await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("Payment canceled");
    expect(await stateOf(intent.id)).toMatchObject({ state: "canceled", card: null });
  });
});

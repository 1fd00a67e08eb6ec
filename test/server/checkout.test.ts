import { readFileSync, existsSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { loadTestCards } from "../../src/fixture-data.js";
import { suiteScope, usePaysimApp, useTempPath, type Scope } from "../helpers/disposables.js";
import { rawRequest } from "../helpers/http.js";
import { createIntent, type TestPaysim } from "../helpers/paysim.js";
import type { PaysimOptions } from "../../src/paysim.js";

const TEST_CARDS = loadTestCards();
const GOOD = { number: "4242 4242 4242 4242", expiry: "12/34", cvc: "123" };

/**
 * This file's instances by origin: a page or form is sent, through `app.request()`, to the app
 * of the instance its URL names. Each instance still listens, for the one test of the Host rule.
 */
const byOrigin = new Map<string, TestPaysim>();

async function useCheckoutPaysim(options: PaysimOptions = {}, scope?: Scope): Promise<TestPaysim> {
  const instance = await usePaysimApp(options, scope);
  byOrigin.set(instance.url, instance);
  return instance;
}

async function request(url: string, init: RequestInit): Promise<Response> {
  const instance = byOrigin.get(new URL(url).origin);
  if (!instance) throw new Error(`no paysim of this file serves ${url}`);
  return instance.app.request(url, init);
}

const thisFile = suiteScope();
let paysim: TestPaysim;
beforeAll(async () => {
  paysim = await useCheckoutPaysim({}, thisFile);
});

interface Page {
  status: number;
  headers: Headers;
  html: string;
}

async function getPage(url: string, headers: Record<string, string> = {}): Promise<Page> {
  const response = await request(url, { headers, redirect: "manual" });
  return { status: response.status, headers: response.headers, html: await response.text() };
}

/** The form token of a checkout page (both forms carry the same one). */
function tokenOf(html: string): string {
  const match = /name="token" value="([^"]+)"/.exec(html);
  if (!match) throw new Error(`no form token in page: ${html.slice(0, 300)}`);
  return match[1]!;
}

/** Posts a form as a browser would (urlencoded), without following the redirect. */
async function postForm(url: string, fields: Record<string, string>, headers: Record<string, string> = {}): Promise<Page> {
  const response = await request(url, { method: "POST", body: new URLSearchParams(fields), headers, redirect: "manual" });
  return { status: response.status, headers: response.headers, html: await response.text() };
}

/** Opens the intent's checkout page and posts its Pay form with `card`. */
async function pay(
  intent: { id: string; checkout_url: string },
  card: Partial<typeof GOOD> & Record<string, string> = GOOD,
  headers: Record<string, string> = {},
) {
  const token = tokenOf((await getPage(intent.checkout_url)).html);
  return postForm(`${paysim.url}/checkout/${intent.id}/pay`, { token, ...card }, headers);
}

async function cancel(intent: { id: string; checkout_url: string }) {
  const token = tokenOf((await getPage(intent.checkout_url)).html);
  return postForm(`${paysim.url}/checkout/${intent.id}/cancel`, { token });
}

async function intentState(id: string) {
  const response = await paysim.api("GET", `/v1/payment_intents/${id}`);
  expect(response.status).toBe(200);
  return response.body;
}

/** The event types recorded for one intent, oldest first, with their request ids. */
async function eventsOf(id: string): Promise<Array<{ type: string; request_id: string; data: any }>> {
  const response = await paysim.api("GET", "/v1/events?limit=100");
  expect(response.status).toBe(200);
  return response.body.data.filter((event: any) => event.data.id === id).reverse();
}

const ENTITIES: Record<string, string> = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#39;": "'" };

/** Visible text of an HTML page: tags stripped, entities decoded, whitespace collapsed. */
function textOf(html: string): string {
  return html
    .replace(/<style[\s\S]*?<\/style>/g, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/&(amp|lt|gt|quot|#39);/g, (entity) => ENTITIES[entity]!)
    .replace(/\s+/g, " ");
}

function expectHtml(page: Page, status: number) {
  expect(page.status, page.html.slice(0, 500)).toBe(status);
  expect(page.headers.get("content-type")).toMatch(/^text\/html; charset=utf-8$/i);
  expect(page.html.startsWith("<!DOCTYPE html>")).toBe(true);
}

describe("GET /checkout/:id of a created intent", () => {
  it("shows merchant, amount in the currency's format, description, reference, the test cards and the card form, with no key", async () => {
    const intent = await createIntent(paysim, { amount: 1050, description: "Order 42: blue mug" });
    const page = await getPage(intent.checkout_url);
    expectHtml(page, 200);
    const text = textOf(page.html);
    expect(text).toContain("Sandbox Merchant");
    expect(text).toContain("€10.50");
    expect(text).toContain("Pay €10.50");
    expect(text).toContain("Order 42: blue mug");
    expect(text).toContain(intent.reference);
    for (const card of TEST_CARDS) expect(text.replace(/ /g, "")).toContain(card.number);
    expect(page.html).toMatch(/<input[^>]*name="number"[^>]*autocomplete="cc-number"/);
    expect(page.html).toMatch(/<input[^>]*name="expiry"[^>]*autocomplete="cc-exp"/);
    expect(page.html).toMatch(/<input[^>]*name="cvc"[^>]*autocomplete="cc-csc"/);
    for (const id of ["card-number", "card-expiry", "card-cvc"]) {
      expect(page.html).toContain(`<label for="${id}">`);
      expect(page.html).toContain(`id="${id}"`);
    }
    expect(page.html).toContain(`<form method="post" action="/checkout/${intent.id}/pay"`);
    expect(page.html).toContain(`<form method="post" action="/checkout/${intent.id}/cancel">`);
    expect(text).toContain("Cancel payment");
  });

  it("formats amounts in minor units of each currency", async () => {
    const cases = [
      [{ amount: 1000, currency: "JPY" }, "¥1,000"],
      [{ amount: 123456, currency: "USD" }, "$1,234.56"],
      [{ amount: 1500, currency: "KWD" }, "KWD 1.500"],
    ] as const;
    for (const [body, shown] of cases) {
      const intent = await createIntent(paysim, body);
      expect(textOf((await getPage(intent.checkout_url)).html)).toContain(`Pay ${shown}`);
    }
  });

  it("needs no JavaScript: the page has no script and posts plain forms", async () => {
    const intent = await createIntent(paysim);
    const page = await getPage(intent.checkout_url);
    expect(page.html).not.toMatch(/<script/i);
    expect(page.html).not.toMatch(/\son[a-z]+=/i);
  });

  it("sends a strict CSP whose style nonce matches the page's one <style>, and no-store, DENY, same-origin referrer", async () => {
    const intent = await createIntent(paysim);
    const page = await getPage(intent.checkout_url);
    const csp = page.headers.get("content-security-policy") ?? "";
    const directives = Object.fromEntries(
      csp
        .split(";")
        .map((d) => d.trim().split(/\s+/))
        .map(([name, ...values]) => [name, values.join(" ")]),
    );
    expect(directives["default-src"]).toBe("'none'");
    expect(directives["form-action"]).toBe("'self'");
    expect(directives["frame-ancestors"]).toBe("'none'");
    expect(directives["base-uri"]).toBe("'none'");
    expect(directives["script-src"]).toBeUndefined();
    const nonce = /^'nonce-([A-Za-z0-9+/=]+)'$/.exec(directives["style-src"] ?? "")?.[1];
    expect(nonce).toBeDefined();
    expect(page.html).toContain(`<style nonce="${nonce}">`);
    expect(page.html.match(/<style/g)).toHaveLength(1);
    expect(page.headers.get("cache-control")).toBe("no-store");
    expect(page.headers.get("x-frame-options")).toBe("DENY");
    expect(page.headers.get("referrer-policy")).toBe("same-origin");
    expect(page.headers.get("x-content-type-options")).toBe("nosniff");
    expect(page.headers.get("request-id")).toMatch(/^req_/);
    const again = await getPage(intent.checkout_url);
    expect(again.headers.get("content-security-policy")).not.toBe(csp);
  });

  it("renders a description and a merchant name holding HTML as text", async () => {
    const other = await useCheckoutPaysim({ config: { companies: [{ name: `Bob's <i>"Shop"</i> & Co`, currency: "EUR", webhook_endpoints: [] }] } });
    const intent = await createIntent(other, { amount: 500, description: `<script>alert("x")</script><img src=x onerror=alert(1)>` });
    const page = await getPage(intent.checkout_url);
    expectHtml(page, 200);
    expect(page.html).not.toContain("<script>");
    expect(page.html).not.toContain("<img");
    expect(page.html).not.toContain("<i>");
    expect(page.html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;");
    expect(page.html).toContain("Bob&#39;s &lt;i&gt;&quot;Shop&quot;&lt;/i&gt; &amp; Co");
  });
});

describe("GET /checkout/:id of an unknown id", () => {
  it.each(["/checkout/pi_000000000000000000000000", "/checkout/nope", "/checkout/pi_x/extra/path", "/checkout"])(
    "%s is a 404 HTML page with the checkout headers",
    async (path) => {
      const page = await getPage(paysim.url + path);
      expectHtml(page, 404);
      expect(textOf(page.html)).toContain("Payment not found");
      expect(page.headers.get("content-security-policy")).toContain("default-src 'none'");
      expect(page.headers.get("cache-control")).toBe("no-store");
    },
  );

  it("a pay or cancel post to an unknown id is a 404 page too", async () => {
    for (const action of ["pay", "cancel"]) {
      const page = await postForm(`${paysim.url}/checkout/pi_000000000000000000000000/${action}`, { token: "x", ...GOOD });
      expectHtml(page, 404);
    }
  });
});

describe("Pay", () => {
  it("with a succeeding test card captures an automatic intent, emitting authorized then captured under the page's request id", async () => {
    const intent = await createIntent(paysim, { amount: 2500 });
    const response = await pay(intent);
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe(`/checkout/${intent.id}`);
    const after = await intentState(intent.id);
    expect(after).toMatchObject({ state: "captured", card: { last4: "4242", brand: "visa" }, failure_reason: null });
    const events = await eventsOf(intent.id);
    expect(events.map((e) => e.type)).toEqual(["payment_intent.created", "payment_intent.authorized", "payment_intent.captured"]);
    expect(events[1]!.request_id).toBe(response.headers.get("request-id"));
    expect(events[2]!.data).toMatchObject({ state: "captured", card: { last4: "4242", brand: "visa" } });

    const result = await getPage(intent.checkout_url);
    expectHtml(result, 200);
    expect(textOf(result.html)).toContain("Payment successful");
    expect(textOf(result.html)).toContain("Visa •••• 4242");
    expect(result.html).not.toContain("<form");
  });

  it("with a succeeding card authorizes a manual intent and the page says it awaits capture by the merchant", async () => {
    const intent = await createIntent(paysim, { amount: 2500, capture_method: "manual" });
    expect((await pay(intent, { ...GOOD, number: "5555555555554444" })).status).toBe(303);
    expect(await intentState(intent.id)).toMatchObject({ state: "authorized", card: { last4: "4444", brand: "mastercard" } });
    expect((await eventsOf(intent.id)).map((e) => e.type)).toEqual(["payment_intent.created", "payment_intent.authorized"]);
    expect(textOf((await getPage(intent.checkout_url)).html)).toContain("awaiting capture by the merchant");
  });

  it.each([
    ["2221 0000 0000 0009", "mastercard", "0009", "123"],
    ["6011 1111 1111 1117", "discover", "1117", "123"],
    ["6500 0000 0000 0002", "discover", "0002", "123"],
    ["3400 0000 0000 009", "amex", "0009", "1234"],
    ["4111-1111-1111-1111", "visa", "1111", "123"],
    ["3530 1113 3330 0000", "unknown", "0000", "123"],
  ])("with any other Luhn-valid number %s authorizes with brand %s from its prefix", async (number, brand, last4, cvc) => {
    const intent = await createIntent(paysim, { amount: 700, capture_method: "manual" });
    expect((await pay(intent, { ...GOOD, number, cvc })).status).toBe(303);
    expect(await intentState(intent.id)).toMatchObject({ state: "authorized", card: { last4, brand }, failure_reason: null });
  });

  it.each(TEST_CARDS.filter((card) => card.outcome === "failed").map((card) => [card.number, card.failure_reason] as const))(
    "with the declining test card %s fails the intent with %s and shows why",
    async (number, reason) => {
      const intent = await createIntent(paysim);
      expect((await pay(intent, { ...GOOD, number })).status).toBe(303);
      expect(await intentState(intent.id)).toMatchObject({ state: "failed", failure_reason: reason, card: { last4: number.slice(-4), brand: "visa" } });
      const events = await eventsOf(intent.id);
      expect(events.map((e) => e.type)).toEqual(["payment_intent.created", "payment_intent.failed"]);
      const text = textOf((await getPage(intent.checkout_url)).html);
      expect(text).toContain("Payment failed");
      expect(text).toContain(`Failed: ${reason}`);
    },
  );
});

describe("Pay with bad card details", () => {
  const cases: Array<[string, Record<string, string>, string]> = [
    ["a Luhn-invalid number", { number: "4242 4242 4242 4241" }, "Your card number is invalid."],
    ["a too short number", { number: "4242 4242" }, "Your card number is incomplete."],
    ["letters in the number", { number: "4242 4242 4242 424x" }, "A card number has digits only."],
    ["a missing number", { number: "" }, "Enter your card number."],
    ["an expiry in the past", { expiry: "01/20" }, "Your card has expired."],
    ["an expiry not as MM/YY", { expiry: "13/34" }, "Enter the expiry date as MM/YY."],
    ["a missing expiry", { expiry: "" }, "Enter the card's expiry date."],
    ["a 2-digit CVC", { cvc: "12" }, "The security code is 3 or 4 digits."],
    ["a 5-digit CVC", { cvc: "12345" }, "The security code is 3 or 4 digits."],
    ["a missing CVC", { cvc: "" }, "Enter the card's security code (CVC)."],
    ["a 4-digit CVC with a Visa card", { cvc: "1234" }, "The security code is 3 digits."],
    ["a 3-digit CVC with the Amex test card", { number: "3782 822463 10005", cvc: "123" }, "An American Express card's security code is 4 digits."],
    ["a 3-digit CVC with another Amex number", { number: "3400 0000 0000 009", cvc: "123" }, "An American Express card's security code is 4 digits."],
  ];

  it.each(cases)("%s re-renders the form with the error (422) and changes nothing", async (_name, change, message) => {
    const intent = await createIntent(paysim);
    const before = await eventsOf(intent.id);
    const page = await pay(intent, { ...GOOD, ...change });
    expectHtml(page, 422);
    expect(textOf(page.html)).toContain(message);
    expect(page.html).toContain('role="alert"');
    expect(page.html).toContain('aria-invalid="true"');
    expect(page.html).toContain(`action="/checkout/${intent.id}/pay"`);
    expect(await intentState(intent.id)).toMatchObject({ state: "created", card: null });
    expect(await eventsOf(intent.id)).toEqual(before);
  });

  it("fields left out of the post entirely are each reported", async () => {
    const intent = await createIntent(paysim);
    const token = tokenOf((await getPage(intent.checkout_url)).html);
    const page = await postForm(`${paysim.url}/checkout/${intent.id}/pay`, { token });
    expectHtml(page, 422);
    const text = textOf(page.html);
    for (const message of ["Enter your card number.", "Enter the card's expiry date.", "Enter the card's security code (CVC)."])
      expect(text).toContain(message);
    expect((await intentState(intent.id)).state).toBe("created");
  });

  it("never echoes the typed number or CVC, keeps the expiry, and masks a number typed into the expiry", async () => {
    const intent = await createIntent(paysim);
    const invalid = await pay(intent, { number: "4242424242424241", expiry: "01/20", cvc: "8317" });
    expect(invalid.html).not.toContain("4242424242424241");
    expect(invalid.html).not.toContain("8317");
    expect(invalid.html).toMatch(/name="expiry"[^>]*value="01\/20"/);
    expect(invalid.html).toMatch(/<input[^>]*name="number"(?![^>]*value=)[^>]*>/);

    const panInExpiry = await pay(intent, { number: "4242424242424242", expiry: "4000056655665556", cvc: "123" });
    expectHtml(panInExpiry, 422);
    expect(panInExpiry.html).not.toContain("4000056655665556");
    expect(panInExpiry.html).not.toContain("4242424242424242");
  });

  it("judges the expiry by the paysim clock, not the wall clock", async () => {
    const isolated = await useCheckoutPaysim();
    const intent = await createIntent(isolated);
    const now = new Date();
    // Valid through the end of next month in real time…
    const next = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
    const expiry = `${String(next.getUTCMonth() + 1).padStart(2, "0")}/${String(next.getUTCFullYear()).slice(-2)}`;
    // …but a year later on the paysim clock.
    const advanced = await isolated.api("POST", "/v1/sandbox/clock/advance", { body: { seconds: 365 * 86_400 } });
    expect(advanced.status).toBe(200);
    const token = tokenOf((await getPage(intent.checkout_url)).html);
    const page = await postForm(`${isolated.url}/checkout/${intent.id}/pay`, { token, ...GOOD, expiry });
    expectHtml(page, 422);
    expect(textOf(page.html)).toContain("Your card has expired.");
  });

  it("a corrected form after an error pays (the re-rendered form carries a valid token)", async () => {
    const intent = await createIntent(paysim);
    const refused = await pay(intent, { ...GOOD, number: "4242424242424241" });
    const retried = await postForm(`${paysim.url}/checkout/${intent.id}/pay`, { token: tokenOf(refused.html), ...GOOD });
    expect(retried.status).toBe(303);
    expect((await intentState(intent.id)).state).toBe("captured");
  });
});

describe("Cancel", () => {
  it("cancels a created intent with the same event as the API, and the page then says so", async () => {
    const intent = await createIntent(paysim);
    const response = await cancel(intent);
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe(`/checkout/${intent.id}`);
    expect(await intentState(intent.id)).toMatchObject({ state: "canceled", card: null });
    const events = await eventsOf(intent.id);
    expect(events.map((e) => e.type)).toEqual(["payment_intent.created", "payment_intent.canceled"]);
    expect(events[1]!.data.card).toBeNull();
    const text = textOf((await getPage(intent.checkout_url)).html);
    expect(text).toContain("Payment canceled");
  });
});

describe("forms from anywhere but the page itself", () => {
  it.each([
    ["no token", (_token: string) => ({}), {}],
    ["an empty token", (_token: string) => ({ token: "" }), {}],
    ["a forged token", (_token: string) => ({ token: "A".repeat(43) }), {}],
    ["a token that is not base64url", (_token: string) => ({ token: "<>!!" }), {}],
    ["a valid token but a foreign Origin", (token: string) => ({ token }), { Origin: "http://evil.example" }],
    ["a valid token but Origin null", (token: string) => ({ token }), { Origin: "null" }],
    ["a valid token but another localhost port's Origin", (token: string) => ({ token }), { Origin: "http://127.0.0.1:1" }],
    ["a valid token but Sec-Fetch-Site cross-site", (token: string) => ({ token }), { "Sec-Fetch-Site": "cross-site" }],
    ["a valid token but Sec-Fetch-Site same-site", (token: string) => ({ token }), { "Sec-Fetch-Site": "same-site" }],
  ] as const)("%s: Pay and Cancel are refused with a 403 page and nothing changes", async (_name, fields, headers) => {
    const intent = await createIntent(paysim);
    const token = tokenOf((await getPage(intent.checkout_url)).html);
    for (const action of ["pay", "cancel"]) {
      const page = await postForm(`${paysim.url}/checkout/${intent.id}/${action}`, { ...GOOD, ...fields(token) }, headers);
      expectHtml(page, 403);
      expect(textOf(page.html)).toContain("This form could not be verified");
      expect(page.html).not.toContain("4242424242424242");
    }
    expect(await intentState(intent.id)).toMatchObject({ state: "created", card: null });
    expect((await eventsOf(intent.id)).map((e) => e.type)).toEqual(["payment_intent.created"]);
  });

  it("a token of another intent is refused", async () => {
    const first = await createIntent(paysim);
    const second = await createIntent(paysim);
    const token = tokenOf((await getPage(first.checkout_url)).html);
    const page = await postForm(`${paysim.url}/checkout/${second.id}/pay`, { token, ...GOOD });
    expectHtml(page, 403);
    expect((await intentState(second.id)).state).toBe("created");
  });

  it("a token issued before a restart is refused after it (the key lives in one instance's memory)", async () => {
    const first = await useCheckoutPaysim({ db: useTempPath() });
    const intent = await createIntent(first);
    const token = tokenOf((await getPage(intent.checkout_url)).html);
    await first.close();
    const second = await useCheckoutPaysim({ db: first.dbPath, secretKey: first.secretKey });
    const page = await postForm(`${second.url}/checkout/${intent.id}/pay`, { token, ...GOOD });
    expectHtml(page, 403);
    const fresh = tokenOf((await getPage(`${second.url}/checkout/${intent.id}`)).html);
    expect(fresh).not.toBe(token);
  });

  it("a post carrying this page's own Origin and Sec-Fetch-Site is accepted", async () => {
    const intent = await createIntent(paysim);
    const response = await pay(intent, GOOD, { Origin: paysim.url, "Sec-Fetch-Site": "same-origin" });
    expect(response.status).toBe(303);
  });

  it("a JSON body is not a form: refused with 403", async () => {
    const intent = await createIntent(paysim);
    const token = tokenOf((await getPage(intent.checkout_url)).html);
    const response = await request(`${paysim.url}/checkout/${intent.id}/pay`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ token, ...GOOD }),
      redirect: "manual",
    });
    expect(response.status).toBe(403);
    expect((await intentState(intent.id)).state).toBe("created");
  });

  it("a form over 16 KiB is refused with a 413 page", async () => {
    const intent = await createIntent(paysim);
    const token = tokenOf((await getPage(intent.checkout_url)).html);
    const page = await postForm(`${paysim.url}/checkout/${intent.id}/pay`, { token, ...GOOD, padding: "x".repeat(20_000) });
    expectHtml(page, 413);
    expect((await intentState(intent.id)).state).toBe("created");
  });

  it("the Host guard still applies to checkout pages", async () => {
    const intent = await createIntent(paysim);
    const response = await rawRequest(paysim.url, { method: "GET", path: `/checkout/${intent.id}`, headers: { Host: "evil.example" } });
    expect(response.status).toBe(403);
  });
});

describe("an intent that is no longer created", () => {
  it("shows where it stands instead of the form, for each state", async () => {
    const authorized = await createIntent(paysim, { amount: 900, capture_method: "manual" });
    await paysim.api("POST", `/v1/payment_intents/${authorized.id}/authorize`, { body: {} });
    const captured = await createIntent(paysim, { amount: 900 });
    await paysim.api("POST", `/v1/payment_intents/${captured.id}/authorize`, { body: {} });
    const canceled = await createIntent(paysim, { amount: 900 });
    await paysim.api("POST", `/v1/payment_intents/${canceled.id}/cancel`, { body: {} });
    const failed = await createIntent(paysim, { amount: 900 });
    await paysim.api("POST", `/v1/payment_intents/${failed.id}/authorize`, { body: { payment_method: "pm_card_insufficient_funds" } });

    const expected: Array<[any, string, string]> = [
      [authorized, "Payment authorized", "Authorized, awaiting capture by the merchant"],
      [captured, "Payment successful", "Captured: paid"],
      [canceled, "Payment canceled", "Your card was not charged"],
      [failed, "Payment failed", "Your card has insufficient funds."],
    ];
    for (const [intent, title, detail] of expected) {
      const page = await getPage(intent.checkout_url);
      expectHtml(page, 200);
      expect(page.html).not.toContain("<form");
      expect(page.html).not.toContain('name="number"');
      const text = textOf(page.html);
      expect(text).toContain(title);
      expect(text).toContain(detail);
      expect(text).toContain(intent.reference);
      expect(text).toContain("€9.00");
    }
  });

  it("a Pay post from a page opened before the merchant moved it is refused cleanly (409) and changes nothing", async () => {
    const intent = await createIntent(paysim, { amount: 900, capture_method: "manual" });
    const token = tokenOf((await getPage(intent.checkout_url)).html);
    expect((await paysim.api("POST", `/v1/payment_intents/${intent.id}/authorize`, { body: {} })).status).toBe(200);
    const before = await eventsOf(intent.id);

    const page = await postForm(`${paysim.url}/checkout/${intent.id}/pay`, { token, ...GOOD, number: "4000000000000002" });
    expectHtml(page, 409);
    const text = textOf(page.html);
    expect(text).toContain("already authorized");
    expect(text).toContain("awaiting capture by the merchant");
    expect(await intentState(intent.id)).toMatchObject({ state: "authorized", card: { last4: "4242" } });
    expect(await eventsOf(intent.id)).toEqual(before);
  });

  it("a Cancel post cannot cancel an authorization: that is the merchant's call", async () => {
    const intent = await createIntent(paysim, { amount: 900, capture_method: "manual" });
    const token = tokenOf((await getPage(intent.checkout_url)).html);
    await paysim.api("POST", `/v1/payment_intents/${intent.id}/authorize`, { body: {} });
    const page = await postForm(`${paysim.url}/checkout/${intent.id}/cancel`, { token });
    expectHtml(page, 409);
    expect((await intentState(intent.id)).state).toBe("authorized");
  });

  it("paying twice from two tabs moves the intent once", async () => {
    const intent = await createIntent(paysim);
    const token = tokenOf((await getPage(intent.checkout_url)).html);
    const url = `${paysim.url}/checkout/${intent.id}/pay`;
    const results = await Promise.all([postForm(url, { token, ...GOOD }), postForm(url, { token, ...GOOD, number: "4000000000000002" })]);
    expect(results.map((r) => r.status).sort()).toEqual([303, 409]);
    const moves = (await eventsOf(intent.id)).map((e) => e.type).slice(1);
    expect([["payment_intent.authorized", "payment_intent.captured"], ["payment_intent.failed"]]).toContainEqual(moves);
  });
});

describe("an unexpected failure", () => {
  it("is an HTML 500 page naming the request, reported with that request id", async () => {
    const reported: Array<[string, unknown]> = [];
    const isolated = await useCheckoutPaysim({ onInternalError: (requestId, error) => reported.push([requestId, error]) });
    const intent = await createIntent(isolated);
    isolated.store.db.close(); // a real fault: every lookup now throws
    const page = await getPage(intent.checkout_url);
    expectHtml(page, 500);
    const requestId = page.headers.get("request-id")!;
    expect(textOf(page.html)).toContain("Something went wrong");
    expect(textOf(page.html)).toContain(requestId);
    expect(page.html).not.toMatch(/database|at \S+\.js|stack/i);
    expect(reported.map(([id]) => id)).toEqual([requestId]);
  });
});

/** Every text value of every table, as the instance's own connection reads them (the file is locked to it). */
function textCells(db: TestPaysim["store"]["db"]): string[] {
  const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[];
  return tables.flatMap((table) =>
    (db.prepare(`SELECT * FROM "${table}"`).raw().all() as unknown[][]).flat().filter((value): value is string => typeof value === "string"),
  );
}

describe("card data at rest", () => {
  it("the database file keeps only last4 and brand: no full number, no CVC, whatever was typed", async () => {
    const isolated = await useCheckoutPaysim({ db: useTempPath() });
    const paid = await createIntent(isolated, { amount: 100, description: "card 5105 1051 0510 5100 in a description" });
    const declined = await createIntent(isolated, { amount: 100 });
    const submissions: Array<[any, Record<string, string>]> = [
      [paid, { number: "4242424242424241", expiry: "12/34", cvc: "7391" }],
      // An Amex card, whose CVC has 4 digits: distinctive enough to look for in the files.
      [paid, { number: "371449635398431", expiry: "12/34", cvc: "7392" }],
      [declined, { number: "4000000000000002", expiry: "12/34", cvc: "739" }],
    ];
    for (const [intent, card] of submissions) {
      const token = tokenOf((await getPage(intent.checkout_url)).html);
      await postForm(`${isolated.url}/checkout/${intent.id}/pay`, { token, ...card });
    }
    expect((await isolated.api("GET", `/v1/payment_intents/${paid.id}`)).body).toMatchObject({ state: "captured", card: { last4: "8431", brand: "amex" } });
    expect((await isolated.api("GET", `/v1/payment_intents/${declined.id}`)).body).toMatchObject({ state: "failed", card: { last4: "0002" } });

    const files = [isolated.dbPath, `${isolated.dbPath}-wal`].filter(existsSync);
    const bytes = files.map((file) => readFileSync(file).toString("latin1")).join("\n");
    for (const number of ["4242424242424241", "371449635398431", "4000000000000002", "5105105105105100"]) {
      expect(bytes.includes(number), `${number} found in the database files`).toBe(false);
    }
    expect(bytes).not.toMatch(/"cvc"|cvc=/i);
    expect(bytes).toContain("8431");
    // A 4-digit CVC turns up by chance inside random hex hashes and ids (about 1 run in 130 per CVC,
    // measured), so it is looked for where a stored CVC would stand: as a token of its own in the
    // files (JSON, form bodies, logs), and as, or inside, any text value a table holds. The declined
    // Visa card's 3-digit CVC would turn up by chance too often to be looked for the same way.
    const cells = textCells(isolated.store.db);
    for (const cvc of ["7391", "7392"]) {
      const alone = new RegExp(`(?<![0-9A-Za-z])${cvc}(?![0-9A-Za-z])`);
      expect(alone.test(bytes), `${cvc} found alone in the database files`).toBe(false);
      expect(
        cells.filter((text) => new RegExp(`\\b${cvc}\\b`).test(text)),
        `${cvc} found in a stored value`,
      ).toEqual([]);
    }
  });
});

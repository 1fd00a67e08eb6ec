import { beforeAll, describe, expect, it } from "vitest";
import { suiteScope, useReceiver } from "../../helpers/disposables.js";
import { createIntent, freshKey, type TestPaysim } from "../../helpers/paysim.js";
import { ACME_KEY, csrfOf, DashboardClient, GLOBEX_KEY, signedIn, textOf, useTwoCompanies } from "./helpers.js";

const thisFile = suiteScope();
let paysim: TestPaysim;
let client: DashboardClient;

beforeAll(async () => {
  paysim = await useTwoCompanies(thisFile, { payouts: "manual" });
  client = await signedIn(paysim);
});

async function createPayout(key = ACME_KEY, body: object = { amount: 5000, currency: "EUR", destination_type: "card", destination_token: "tok_card_visa" }) {
  const response = await paysim.api("POST", "/v1/payouts", { body, idempotencyKey: freshKey(), key });
  expect(response.status).toBe(201);
  return response.body;
}

describe("the dashboard's pages, signed in as the default company", () => {
  it("lists the company's events newest first with their type and object, and filters by type", async () => {
    const intent = await createIntent(paysim, { amount: 1234 }, ACME_KEY);
    const payout = await createPayout();
    const page = textOf((await client.get("/events")).html);
    const all = page.slice(page.indexOf("Deliveries")); // the table, after the filter's list of types
    expect(all.indexOf("payout.created")).toBeLessThan(all.indexOf("payment_intent.created"));
    expect(all).toContain(intent.id);
    const filtered = await client.get("/events?type=payout.created");
    expect(filtered.status).toBe(200);
    expect(textOf(filtered.html)).toContain(payout.id);
    expect(textOf(filtered.html)).not.toContain(intent.id);
  });

  it("refuses an unknown event type filter in words", async () => {
    const answer = await client.get("/events?type=payment_intent.exploded");
    expect(answer.status).toBe(400);
    expect(textOf(answer.html)).toContain('"payment_intent.exploded" is not an event type');
  });

  it("shows one payment intent with its amount, state, events and a link to its checkout page", async () => {
    const intent = await createIntent(paysim, { amount: 4200, description: "Blue mug" }, ACME_KEY);
    const page = await client.get(`/payment_intents/${intent.id}`);
    expect(page.status).toBe(200);
    const text = textOf(page.html);
    expect(text).toContain("€42.00");
    expect(text).toContain("Blue mug");
    expect(text).toContain("payment_intent.created");
    expect(page.html).toContain(`href="${intent.checkout_url}"`);
    expect(textOf((await client.get("/payment_intents")).html)).toContain(intent.reference);
  });

  it("a payout's move button changes what the API returns, with its event", async () => {
    const payout = await createPayout();
    const page = await client.get(`/payouts/${payout.id}`);
    expect(textOf(page.html)).toContain("Move to processing");
    expect(textOf(page.html)).not.toContain("Move to succeeded"); // not drawn from pending
    const after = await client.submit(`/payouts/${payout.id}/transition`, { to: "processing" });
    expect(textOf(after.html)).toContain("Moved to processing.");
    expect((await paysim.api("GET", `/v1/payouts/${payout.id}`, { key: ACME_KEY })).body.status).toBe("processing");
    expect(textOf(after.html)).toContain("payout.processing");
  });

  it("a move that is not drawn, or a bad partial amount, is refused in the API's words and changes nothing", async () => {
    const payout = await createPayout();
    const refused = await client.submit(`/payouts/${payout.id}/transition`, { to: "succeeded" });
    expect(textOf(refused.html)).toContain('Cannot move a payout from "pending" to "succeeded"');
    expect(refused.html).toContain('role="alert"');
    await client.submit(`/payouts/${payout.id}/transition`, { to: "processing" });
    await client.submit(`/payouts/${payout.id}/transition`, { to: "succeeded" });
    for (const amount of ["5000", "0", "ten", ""]) {
      const answer = await client.submit(`/payouts/${payout.id}/transition`, { to: "partially_reversed", amount });
      expect(textOf(answer.html)).toMatch(/amount/);
      expect(answer.html).toContain('role="alert"');
    }
    expect((await paysim.api("GET", `/v1/payouts/${payout.id}`, { key: ACME_KEY })).body).toMatchObject({ status: "succeeded", amount_reversed: 0 });
    const partial = await client.submit(`/payouts/${payout.id}/transition`, { to: "partially_reversed", amount: "1200" });
    expect(textOf(partial.html)).toContain("Moved to partially reversed.");
    expect((await paysim.api("GET", `/v1/payouts/${payout.id}`, { key: ACME_KEY })).body).toMatchObject({
      status: "partially_reversed",
      amount_reversed: 1200,
    });
  });

  it("a clock button advances the clock the API reports; a bad value is refused in words", async () => {
    const before = (await paysim.api("GET", "/v1/sandbox/clock", { key: ACME_KEY })).body.offset_seconds;
    const page = await client.submit("/clock/advance", { seconds: "3600" });
    expect(textOf(page.html)).toContain("Advanced 3600 s");
    expect((await paysim.api("GET", "/v1/sandbox/clock", { key: ACME_KEY })).body.offset_seconds).toBe(before + 3600);
    for (const seconds of ["-5", "abc", "99999999999"]) {
      const refused = await client.submit("/clock/advance", { seconds });
      expect(textOf(refused.html)).toContain("seconds must be an integer from 1 to 31536000");
    }
    expect((await paysim.api("GET", "/v1/sandbox/clock", { key: ACME_KEY })).body.offset_seconds).toBe(before + 3600);
  });

  it("adds a webhook endpoint with event types, reveals its secret on request only, and deletes it", async () => {
    const added = await client.submit("/webhook_endpoints", { url: "http://127.0.0.1:9/hooks", enabled_events: ["payout.failed", "payout.returned"] });
    expect(textOf(added.html)).toContain("Added http://127.0.0.1:9/hooks");
    const listed = (await paysim.api("GET", "/v1/webhook_endpoints", { key: ACME_KEY })).body.data;
    const endpoint = listed.find((e: any) => e.url === "http://127.0.0.1:9/hooks");
    expect(endpoint.enabled_events).toEqual(["payout.failed", "payout.returned"]);
    expect(added.html).not.toContain(endpoint.secret);
    const revealed = await client.post(`/webhook_endpoints/${endpoint.id}/reveal`, { csrf: csrfOf(added.html) });
    expect(revealed.status).toBe(200);
    expect(textOf(revealed.html)).toContain(endpoint.secret);
    const deleted = await client.submit(`/webhook_endpoints/${endpoint.id}/delete`);
    expect(textOf(deleted.html)).toContain("Deleted http://127.0.0.1:9/hooks");
    expect((await paysim.api("GET", `/v1/webhook_endpoints/${endpoint.id}`, { key: ACME_KEY })).status).toBe(404);
  });

  it("refuses a bad endpoint in the API's words and adds nothing", async () => {
    const before = (await paysim.api("GET", "/v1/webhook_endpoints", { key: ACME_KEY })).body.data.length;
    for (const url of ["ftp://example.com/hooks", "not a url", ""]) {
      const answer = await client.submit("/webhook_endpoints", { url });
      expect(textOf(answer.html)).toContain("url must be an http:// or https:// URL");
    }
    const badType = await client.submit("/webhook_endpoints", { url: "http://127.0.0.1:9/x", enabled_events: ["payout.exploded"] });
    expect(textOf(badType.html)).toContain("enabled_events must be a list of event types");
    expect((await paysim.api("GET", "/v1/webhook_endpoints", { key: ACME_KEY })).body.data.length).toBe(before);
  });

  it("one event shows its deliveries with every attempt and the headers sent; Resend makes a new delivery", async () => {
    const receiver = await useReceiver(200);
    const endpoint = (await paysim.api("POST", "/v1/webhook_endpoints", { body: { url: receiver.url }, key: ACME_KEY })).body;
    const intent = await createIntent(paysim, { amount: 700 }, ACME_KEY);
    await receiver.waitForRequests(1);
    const event = (await paysim.api("GET", "/v1/events?type=payment_intent.created&limit=1", { key: ACME_KEY })).body.data[0];
    expect(event.data.id).toBe(intent.id);
    const page = await client.get(`/events/${event.id}`);
    const text = textOf(page.html);
    expect(text).toContain(receiver.url);
    expect(text).toContain(`Service-Event-Id: ${event.id}`);
    expect(text).toContain("Service-Signature: t=");
    expect(text).toContain(`"id": "${intent.id}"`);

    const resent = await client.submit(`/events/${event.id}/resend`);
    expect(textOf(resent.html)).toContain("Resent");
    await receiver.waitForRequests(2);
    const deliveries = (await paysim.api("GET", `/v1/events/${event.id}`, { key: ACME_KEY })).body.deliveries;
    expect(deliveries.filter((d: any) => d.endpoint_id === endpoint.id)).toHaveLength(2);
    await paysim.api("DELETE", `/v1/webhook_endpoints/${endpoint.id}`, { key: ACME_KEY });
  });
});

describe("isolation: a session sees its own company only", () => {
  it("another company's payment intent, payout, event and endpoint are 404 pages, and its events are not listed", async () => {
    const intent = await createIntent(paysim, { amount: 999 }, GLOBEX_KEY);
    const payout = await createPayout(GLOBEX_KEY, { amount: 100, currency: "USD", destination_type: "card", destination_token: "tok_card_visa" });
    const endpoint = (await paysim.api("POST", "/v1/webhook_endpoints", { body: { url: "http://127.0.0.1:9/globex" }, key: GLOBEX_KEY })).body;
    const event = (await paysim.api("GET", "/v1/events?limit=1", { key: GLOBEX_KEY })).body.data[0];
    for (const path of [`/payment_intents/${intent.id}`, `/payouts/${payout.id}`, `/events/${event.id}`]) {
      const answer = await client.get(path);
      expect(answer.status, path).toBe(404);
      expect(textOf(answer.html)).toContain("belongs to another company");
    }
    for (const [path, fields] of [
      [`/payouts/${payout.id}/transition`, { to: "processing" }],
      [`/events/${event.id}/resend`, {}],
      [`/webhook_endpoints/${endpoint.id}/delete`, {}],
      [`/webhook_endpoints/${endpoint.id}/reveal`, {}],
    ] as const) {
      const answer = await client.post(path, { csrf: csrfOf((await client.get("/clock")).html), ...fields });
      expect(answer.status, path).toBe(404);
      expect(answer.html).not.toContain(endpoint.secret);
    }
    expect((await paysim.api("GET", `/v1/payouts/${payout.id}`, { key: GLOBEX_KEY })).body.status).toBe("pending");
    expect((await paysim.api("GET", `/v1/webhook_endpoints/${endpoint.id}`, { key: GLOBEX_KEY })).status).toBe(200);
    // The event came before the endpoint, so it has no delivery; the refused Resend made none.
    expect((await paysim.api("GET", `/v1/events/${event.id}`, { key: GLOBEX_KEY })).body.deliveries).toHaveLength(0);
    const lists = [await client.get("/events"), await client.get("/payment_intents"), await client.get("/payouts"), await client.get("/webhook_endpoints")];
    for (const list of lists) {
      for (const foreign of [intent.id, intent.reference, payout.reference, payout.id, endpoint.url, "Globex"])
        expect(textOf(list.html)).not.toContain(foreign);
    }
  });

  it("signed in by Globex's key, the pages show Globex's objects", async () => {
    const globex = new DashboardClient(paysim);
    expect((await globex.signInByKey(GLOBEX_KEY)).status).toBe(303);
    const intent = await createIntent(paysim, { amount: 321, currency: "USD" }, GLOBEX_KEY);
    const page = await globex.get(`/payment_intents/${intent.id}`);
    expect(page.status).toBe(200);
    expect(textOf(page.html)).toContain("Signed in to Globex");
    expect((await client.get(`/payment_intents/${intent.id}`)).status).toBe(404);
  });
});

describe("CSRF and origin checks on every dashboard form", () => {
  const posts: readonly [string, Record<string, string>][] = [
    ["/clock/advance", { seconds: "30" }],
    ["/webhook_endpoints", { url: "http://127.0.0.1:9/csrf" }],
    ["/logout", {}],
  ];

  it("a form without its token, with another session's token, or from another origin is refused with a 403 page, changing nothing", async () => {
    const other = await signedIn(paysim);
    const otherToken = csrfOf((await other.get("/events")).html);
    const token = csrfOf((await client.get("/events")).html);
    const offset = (await paysim.api("GET", "/v1/sandbox/clock")).body.offset_seconds;
    for (const [path, fields] of posts) {
      const attempts = [
        await client.post(path, fields),
        await client.post(path, { ...fields, csrf: otherToken }),
        await client.post(path, { ...fields, csrf: token }, { origin: "http://localhost:3000" }),
        await client.post(path, { ...fields, csrf: token }, { "sec-fetch-site": "same-site" }),
        await new DashboardClient(paysim).post(client.base + path, { ...fields, csrf: token }),
      ];
      for (const answer of attempts) {
        expect(answer.status, path).toBe(403);
        expect(textOf(answer.html)).toContain("This form could not be verified");
      }
    }
    expect((await paysim.api("GET", "/v1/sandbox/clock")).body.offset_seconds).toBe(offset);
    expect((await paysim.api("GET", "/v1/webhook_endpoints", { key: ACME_KEY })).body.data.map((e: any) => e.url)).not.toContain("http://127.0.0.1:9/csrf");
    expect((await client.get("/events")).status).toBe(200); // still signed in
  });

  it("the same form from this origin with its token goes through", async () => {
    const answer = await client.post(
      "/clock/advance",
      { seconds: "30", csrf: csrfOf((await client.get("/clock")).html) },
      { origin: paysim.url, "sec-fetch-site": "same-origin" },
    );
    expect(answer.status).toBe(303);
  });

  it("a page asked for under another Host is the 403 of the DNS-rebinding defence", async () => {
    const answer = await client.get(`http://evil.example:${new URL(paysim.url).port}${client.base}/events`);
    expect(answer.status).toBe(403);
  });

  it("an unknown dashboard page is a 404 page", async () => {
    const answer = await client.get("/nothing/here");
    expect(answer.status).toBe(404);
    expect(textOf(answer.html)).toContain("Page not found");
  });
});

import { describe, expect, it } from "vitest";
import { thisTest } from "../../helpers/disposables.js";
import { createIntent, freshKey } from "../../helpers/paysim.js";
import { coverageRatios } from "../../helpers/coverage-totals.js";
import { ACME_KEY, GLOBEX_KEY, signedIn, textOf, useTwoCompanies } from "./helpers.js";

describe("the Coverage page", () => {
  it("shows the session's company's report as the API answers it: each area's ratio, what was never gone through, the counts and refused moves", async () => {
    const paysim = await useTwoCompanies(thisTest, { payouts: "manual" });
    const intent = await createIntent(paysim, { amount: 1000 }, ACME_KEY);
    expect((await paysim.api("POST", `/v1/payment_intents/${intent.id}/cancel`, { key: ACME_KEY, body: {} })).status).toBe(200);
    expect((await paysim.api("POST", `/v1/payment_intents/${intent.id}/capture`, { key: ACME_KEY, body: {} })).status).toBe(400);
    // Another company's activity is not this page's.
    const payout = { amount: 500, currency: "USD", destination_type: "card", destination_token: "tok_card_visa" };
    expect((await paysim.api("POST", "/v1/payouts", { key: GLOBEX_KEY, body: payout, idempotencyKey: freshKey() })).status).toBe(201);

    const client = await signedIn(paysim);
    const page = await client.get("/coverage");
    expect(page.status).toBe(200);
    expect(page.html).toMatch(/<a[^>]*href="[^"]*\/coverage"[^>]*aria-current="page"|aria-current="page"[^>]*href="[^"]*\/coverage"/);
    const api = (await paysim.api("GET", "/v1/sandbox/coverage", { key: ACME_KEY })).body;
    const summary = textOf(/<section class="card flush" aria-label="Summary">[\s\S]*?<\/section>/.exec(page.html)![0]);
    for (const [area, title] of [
      ["operations", "Operations"],
      ["transitions", "State moves"],
      ["events", "Event types"],
      ["webhooks", "Webhook outcomes"],
      ["errors", "Error codes"],
      ["faults", "Faults"],
    ] as const) {
      expect(summary).toContain(`${title} ${api.summary[area]}`);
    }
    expect(api.summary.operations).toBe(coverageRatios({ operations: 3 }).operations);
    expect(summary).toContain("listPayouts");
    expect(summary).toContain("payout: pending->processing");

    const operations = textOf(/<section[^>]*id="coverage-operations"[\s\S]*?<\/section>/.exec(page.html)![0]);
    expect(operations).toContain("createPaymentIntent 201 × 1 1");
    expect(operations).toContain("capturePaymentIntent 400 × 1 1");
    expect(operations).toContain("createPayout never");
    const events = textOf(/<section[^>]*id="coverage-events"[\s\S]*?<\/section>/.exec(page.html)![0]);
    expect(events).toContain("payment_intent.canceled 1");
    expect(events).toContain("payout.created never");
    expect(textOf(/<section[^>]*id="coverage-refused"[\s\S]*?<\/section>/.exec(page.html)![0])).toContain("payment_intent: canceled->captured 1");
  });

  it("counts the instances the company started, and says so", async () => {
    const paysim = await useTwoCompanies(thisTest);
    const created = await paysim.api("POST", "/v1/sandbox/instances", { key: ACME_KEY, body: {}, idempotencyKey: freshKey() });
    expect(created.status, created.text).toBe(201);
    const instance = created.body;
    expect((await fetch(`${instance.url}/v1/payouts`, { headers: { Authorization: `Bearer ${instance.secret_key}` } })).status).toBe(200);
    expect((await paysim.api("DELETE", `/v1/sandbox/instances/${instance.id}`, { key: ACME_KEY })).status).toBe(200);

    const page = await (await signedIn(paysim)).get("/coverage");
    expect(textOf(page.html)).toContain("It counts the instance this company started.");
    expect(textOf(page.html)).toContain("a reset keeps the counts");
    expect(textOf(/<section[^>]*id="coverage-operations"[\s\S]*?<\/section>/.exec(page.html)![0])).toContain("listPayouts 200 × 1 1");
  });

  it("says when no refused move was tried", async () => {
    const paysim = await useTwoCompanies(thisTest);
    const client = await signedIn(paysim);
    const page = await client.get("/coverage");
    expect(textOf(page.html)).toContain("No move the state machines refuse was asked for.");
    expect(textOf(/<section class="card flush" aria-label="Summary">[\s\S]*?<\/section>/.exec(page.html)![0])).toContain(
      `Operations ${coverageRatios().operations}`,
    );
  });
});

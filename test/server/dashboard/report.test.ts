import { describe, expect, it } from "vitest";
import { thisTest, useReceiver } from "../../helpers/disposables.js";
import { createIntent, freshKey } from "../../helpers/paysim.js";
import { ACME_KEY, GLOBEX_KEY, signedIn, textOf, useTwoCompanies } from "./helpers.js";

/** The part of a page inside the element with this id (up to its closing section). */
const sectionOf = (html: string, id: string) => {
  const match = new RegExp(`<section[^>]*id="${id}"[\\s\\S]*?</section>`).exec(html);
  if (!match) throw new Error(`no #${id} in page: ${textOf(html).slice(0, 400)}`);
  return match[0];
};

describe("the Report page", () => {
  it("says there are no findings when the client made none of the watched mistakes, then shows the coverage as the Coverage page does", async () => {
    const paysim = await useTwoCompanies(thisTest);
    await createIntent(paysim, { amount: 1000 }, ACME_KEY);
    const client = await signedIn(paysim);
    const page = await client.get("/report");
    expect(page.status).toBe(200);
    expect(page.html).toMatch(/<a[^>]*href="[^"]*\/report"[^>]*aria-current="page"|aria-current="page"[^>]*href="[^"]*\/report"/);
    const findings = textOf(sectionOf(page.html, "findings")).replace(/ ([,.])/g, "$1");
    expect(findings).toContain(
      "No findings. This company's client made none of the mistakes paysim watches for: new_key_on_retry, retry_after_ignored, retried_client_error, polling_instead_of_webhooks, slow_webhook_receiver, valid_webhook_rejected.",
    );
    expect(textOf(page.html)).toContain("(0 errors, 0 warnings)");
    // The coverage, rendered by the same parts as the Coverage page.
    const coverage = await client.get("/coverage");
    for (const id of ["coverage-operations", "coverage-events", "coverage-refused"]) {
      expect(textOf(sectionOf(page.html, id))).toBe(textOf(sectionOf(coverage.html, id)));
    }
    expect(textOf(sectionOf(page.html, "coverage-operations"))).toContain("createPaymentIntent 201 × 1 1");
  });

  it("shows each finding with its severity, code, count, advice and examples; an object id links to its page; what came from requests is escaped", async () => {
    const paysim = await useTwoCompanies(thisTest);
    // retried_client_error: the same 404 three times, on a path that decodes to markup HTML must escape.
    const path = "/v1/payment_intents/pi_%3Cimg%20src=x%20onerror=alert(1)%3E'&";
    for (let i = 0; i < 3; i++) expect((await paysim.api("GET", path, { key: ACME_KEY })).status).toBe(404);
    // polling_instead_of_webhooks: one intent read 20 times while an endpoint listens.
    const endpoint = await paysim.api("POST", "/v1/webhook_endpoints", {
      key: ACME_KEY,
      body: { url: "http://127.0.0.1:9/hooks" },
      idempotencyKey: freshKey(),
    });
    expect(endpoint.status, endpoint.text).toBe(201);
    const intent = await createIntent(paysim, { amount: 1000 }, ACME_KEY);
    for (let i = 0; i < 20; i++) expect((await paysim.api("GET", `/v1/payment_intents/${intent.id}`, { key: ACME_KEY })).status).toBe(200);
    // Another company's mistakes are not this page's.
    for (let i = 0; i < 3; i++) await paysim.api("GET", "/v1/payouts/po_missing", { key: GLOBEX_KEY });

    const api = (await paysim.api("GET", "/v1/sandbox/report", { key: ACME_KEY })).body;
    expect(api.findings.map((finding: { code: string }) => finding.code)).toEqual(["retried_client_error", "polling_instead_of_webhooks"]);
    const client = await signedIn(paysim);
    const page = await client.get("/report");
    expect(textOf(page.html)).toContain("(0 errors, 2 warnings)");

    const retried = sectionOf(page.html, "finding-retried_client_error");
    const detail = api.findings[0].examples[0].detail as string;
    expect(detail).toContain("pi_<img src=x onerror=alert(1)>'&");
    expect(textOf(retried)).toContain(detail);
    expect(retried).not.toContain("<img");
    expect(retried).toContain("pi_&lt;img src=x onerror=alert(1)&gt;&#39;&amp;");
    expect(textOf(retried)).toContain(`warning retried_client_error once, first seen`);
    expect(textOf(retried)).toContain(api.findings[0].title);
    expect(textOf(retried)).toContain(api.findings[0].advice);
    expect(textOf(retried)).toContain(api.findings[0].examples[0].request_id);
    // No example of it names an object: no Object column.
    expect(retried).not.toContain(">Object<");

    const polling = sectionOf(page.html, "finding-polling_instead_of_webhooks");
    expect(polling).toMatch(new RegExp(`<a class="mono" href="${client.base}/payment_intents/${intent.id}">${intent.id}</a>`));
    expect(polling).toContain(">Object<");
    expect(textOf(polling)).toContain("read 20 times");
    expect(textOf(page.html)).not.toContain("po_missing");
    // Findings come before the coverage.
    expect(page.html.indexOf('id="findings"')).toBeLessThan(page.html.indexOf('id="coverage-operations"'));
  });

  it("links a webhook finding's delivery to its place on its event's page", async () => {
    const paysim = await useTwoCompanies(thisTest);
    const receiver = await useReceiver(401);
    const body = { url: receiver.url, enabled_events: ["payment_intent.created"] };
    expect((await paysim.api("POST", "/v1/webhook_endpoints", { key: ACME_KEY, body, idempotencyKey: freshKey() })).status).toBe(201);
    const intent = await createIntent(paysim, { amount: 1000 }, ACME_KEY);
    const query = `type=payment_intent.created&object_id=${intent.id}&attempt=1&timeout_ms=10000`;
    const waited = await paysim.api("GET", `/v1/sandbox/webhooks/wait?${query}`, { key: ACME_KEY });
    expect(waited.status, waited.text).toBe(200);
    const [finding] = (await paysim.api("GET", "/v1/sandbox/report", { key: ACME_KEY })).body.findings;
    expect(finding.code).toBe("valid_webhook_rejected");
    const deliveryId = finding.examples[0].object_id as string;
    expect(deliveryId).toMatch(/^del_/);

    const client = await signedIn(paysim);
    const card = sectionOf((await client.get("/report")).html, "finding-valid_webhook_rejected");
    // The request that caused the event delivered, beside the delivery.
    expect(finding.examples[0].request_id).toBe(intent.request_id);
    expect(textOf(card)).toContain(intent.request_id);
    const link = new RegExp(`<a class="mono" href="(${client.base}/events/(evt_[0-9A-Za-z]+)#delivery-${deliveryId})">${deliveryId}</a>`).exec(card);
    expect(link, card).not.toBeNull();
    const event = await client.get(link![1]!.replace(client.base!, "").replace(/#.*/, ""));
    expect(event.status).toBe(200);
    expect(event.html).toContain(`id="delivery-${deliveryId}"`);
    expect(textOf(event.html)).toContain(intent.id);
  });
});

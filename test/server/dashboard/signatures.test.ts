import { describe, expect, it } from "vitest";
import { useReceiver, useTempPath } from "../../helpers/disposables.js";
import { advance, emitCreatedEvent, expectedV1, parseSignature, settle, useFrozenPaysim } from "../../webhooks/support.js";
import { signedIn, textOf } from "./helpers.js";

const SECRET = "whsec_dashboard_signatures_01";

/** The Service-Signature lines the event page lists for its one delivery, in attempt order. */
function signaturesOnPage(html: string): string[] {
  const list = /<div class="signatures">[\s\S]*?<\/ol>/.exec(html);
  expect(list, "the page lists the signatures sent").not.toBeNull();
  return [...list![0].matchAll(/<li>([\s\S]*?)<\/li>/g)].map((item) => textOf(item[1]!).trim());
}

describe("the event page shows the exact Service-Signature of each attempt", () => {
  it("for a failed attempt, its retry and a chaos duplicate, each line equals the header the receiver got", async () => {
    const receiver = await useReceiver(200);
    receiver.queue(500);
    const paysim = await useFrozenPaysim({ forwardTo: receiver.url, webhookSecret: SECRET, chaos: "duplicate=1" });
    const { eventId } = await emitCreatedEvent(paysim);
    await settle(paysim);
    await advance(paysim, 30); // the retry
    await advance(paysim, 10); // the duplicate, 1–10 s after the success
    const received = receiver.requests.filter((request) => request.headers["service-event-id"] === eventId);
    expect(received.map((request) => request.headers["service-event-id"])).toHaveLength(3);

    const client = await signedIn(paysim);
    const page = await client.get(`/events/${eventId}`);
    expect(page.status).toBe(200);
    const shown = signaturesOnPage(page.html);
    expect(shown).toEqual(received.map((request) => `Service-Signature: ${request.headers["service-signature"]}`));
    // And each one verifies independently of paysim's signer, over the bytes the receiver got.
    for (const request of received) {
      const { t, v1 } = parseSignature(request.headers["service-signature"]);
      expect(v1).toBe(expectedV1(SECRET, t, request.body));
    }
    // The attempt object of the API keeps the fields docs/webhooks.md gives it, and no more.
    const attempts = (await paysim.api("GET", `/v1/events/${eventId}`)).body.deliveries[0].attempts;
    expect(Object.keys(attempts[0]).sort()).toEqual(["attempted_at", "chaos", "duration_ms", "error", "response_body", "status_code"]);
  });

  it("shows the header as it was sent even after the endpoint's secret changed", async () => {
    const receiver = await useReceiver(200);
    const db = useTempPath();
    const first = await useFrozenPaysim({ db, forwardTo: receiver.url, webhookSecret: SECRET });
    const { eventId } = await emitCreatedEvent(first);
    await settle(first);
    await first.close();
    // A later start names the same --forward-to URL with another signing secret.
    const second = await useFrozenPaysim({ db, forwardTo: receiver.url, webhookSecret: "whsec_dashboard_signatures_02", secretKey: first.secretKey });
    const endpoint = (await second.api("GET", "/v1/webhook_endpoints")).body.data[0];
    expect(endpoint.secret).toBe("whsec_dashboard_signatures_02");
    const shown = signaturesOnPage((await (await signedIn(second)).get(`/events/${eventId}`)).html);
    expect(shown).toEqual([`Service-Signature: ${receiver.requests[0]!.headers["service-signature"]}`]);
  });

  it('says "not recorded" for an attempt still under way, then shows its signature once it is done', async () => {
    const receiver = await useReceiver("hang");
    const paysim = await useFrozenPaysim({ forwardTo: receiver.url, webhookSecret: SECRET });
    const { eventId } = await emitCreatedEvent(paysim);
    await receiver.waitForRequests(1);
    const client = await signedIn(paysim);
    const [pending] = signaturesOnPage((await client.get(`/events/${eventId}`)).html);
    expect(pending).toMatch(/^not recorded/);
    receiver.release(200);
    await settle(paysim);
    const [done] = signaturesOnPage((await client.get(`/events/${eventId}`)).html);
    expect(done).toBe(`Service-Signature: ${receiver.requests[0]!.headers["service-signature"]}`);
  });
});

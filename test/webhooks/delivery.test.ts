import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { verifySignature } from "../../src/index.js";
import { useReceiver } from "../helpers/disposables.js";
import { createIntent } from "../helpers/paysim.js";
import { advance, emitCreatedEvent, eventWithDeliveries, expectedV1, parseSignature, settle, useFrozenPaysim } from "./support.js";

const PACKAGE_VERSION = (JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string }).version;
const SECRET = "whsec_delivery_test_0001";
const THREE_DAYS = 3 * 86_400;

const realSeconds = () => Date.now() / 1000;

describe("a webhook delivery", () => {
  it("POSTs the stored event with the seed's headers, signed with the endpoint's secret", async () => {
    const receiver = await useReceiver(200);
    const paysim = await useFrozenPaysim({ forwardTo: receiver.url, webhookSecret: SECRET });
    const before = Math.floor(realSeconds());
    const { eventId, intent } = await emitCreatedEvent(paysim);
    const [request] = await receiver.waitForRequests(1);
    const after = Math.ceil(realSeconds());

    expect(request!.method).toBe("POST");
    expect(request!.url).toBe("/hooks");
    expect(request!.headers.host).toBe(new URL(receiver.url).host);
    expect(request!.headers.connection).toBe("keep-alive");
    expect(request!.headers["content-type"]).toBe("application/json");
    expect(request!.headers["user-agent"]).toBe(`paysim/${PACKAGE_VERSION}`);
    expect(request!.headers["service-event-id"]).toBe(eventId);

    // Signature: recomputed here with node:crypto, and checked by the exported verifier.
    const signature = request!.headers["service-signature"];
    const { t, v1 } = parseSignature(signature);
    expect(v1).toBe(expectedV1(SECRET, t, request!.body));
    expect(verifySignature(request!.body, signature as string, SECRET)).toBe(true);
    expect(verifySignature(request!.body, signature as string, "whsec_another_secret_01")).toBe(false);
    // t is the real wall-clock time of the attempt, in unix seconds.
    expect(Number(t)).toBeGreaterThanOrEqual(before);
    expect(Number(t)).toBeLessThanOrEqual(after);

    // The body is the stored event, byte for byte, and the event the API shows.
    const stored = paysim.store.events.byId(paysim.companies[0]!.company.id, eventId)!;
    expect(request!.body.equals(Buffer.from(stored.body, "utf8"))).toBe(true);
    const { deliveries, request_id: _requestId, ...shown } = await eventWithDeliveries(paysim, eventId);
    expect(JSON.parse(request!.body.toString("utf8"))).toEqual({ ...shown, request_id: intent.request_id });
    expect(JSON.parse(request!.body.toString("utf8"))).toMatchObject({ id: eventId, object: "event", type: "payment_intent.created", data: { id: intent.id } });

    await settle(paysim);
    const event = await eventWithDeliveries(paysim, eventId);
    expect(event.deliveries).toEqual([
      {
        id: expect.any(String),
        endpoint_id: paysim.forwardEndpoints[0]!.id,
        url: receiver.url,
        status: "succeeded",
        next_attempt_at: null,
        attempts: [
          { attempted_at: event.created_at, status_code: 200, error: null, duration_ms: expect.any(Number), response_body: "answered 200", chaos: null },
        ],
      },
    ]);
    expect(event.deliveries[0].attempts[0].duration_ms).toBeGreaterThanOrEqual(0);
  });

  it("sends the same bytes on every attempt, each signed at the real time of that attempt even after the clock jumped days", async () => {
    const receiver = await useReceiver(200);
    receiver.queue(500, 503);
    const paysim = await useFrozenPaysim({ forwardTo: receiver.url, webhookSecret: SECRET });
    const { eventId } = await emitCreatedEvent(paysim);
    await receiver.waitForRequests(1);
    await settle(paysim);

    const before = Math.floor(realSeconds());
    await advance(paysim, THREE_DAYS);
    expect(receiver.requests).toHaveLength(2);
    const after = Math.ceil(realSeconds());
    await advance(paysim, 120);
    expect(receiver.requests).toHaveLength(3);

    const [first, second, third] = receiver.requests;
    for (const request of [second!, third!]) {
      expect(request.body.equals(first!.body)).toBe(true);
      expect(request.headers["service-event-id"]).toBe(eventId);
      expect(request.headers["content-type"]).toBe("application/json");
      const { t, v1 } = parseSignature(request.headers["service-signature"]);
      expect(v1).toBe(expectedV1(SECRET, t, request.body));
      // A receiver with the default 5-minute tolerance still accepts it: t is not the virtual time.
      expect(verifySignature(request.body, request.headers["service-signature"] as string, SECRET)).toBe(true);
    }
    const secondT = Number(parseSignature(second!.headers["service-signature"]).t);
    expect(secondT).toBeGreaterThanOrEqual(before);
    expect(secondT).toBeLessThanOrEqual(after);

    // The attempts themselves are recorded on the virtual clock.
    const event = await eventWithDeliveries(paysim, eventId);
    const [delivery] = event.deliveries;
    expect(delivery.status).toBe("succeeded");
    expect(delivery.attempts.map((a: any) => a.status_code)).toEqual([500, 503, 200]);
    const times = delivery.attempts.map((a: any) => Date.parse(a.attempted_at));
    expect([times[1] - times[0], times[2] - times[1]]).toEqual([THREE_DAYS * 1000, 120 * 1000]);
  });

  it("signs the UTF-8 bytes of a body with non-ASCII text, exactly as they arrive", async () => {
    const receiver = await useReceiver(200);
    const paysim = await useFrozenPaysim({ forwardTo: receiver.url, webhookSecret: SECRET });
    const description = 'Café ☕ – naïve 日本 \u2028 "quoted"';
    await createIntent(paysim, { amount: 1000, description });
    const [request] = await receiver.waitForRequests(1);
    expect(JSON.parse(request!.body.toString("utf8")).data.description).toBe(description);
    expect(request!.headers["content-length"]).toBe(String(request!.body.length));
    const { t, v1 } = parseSignature(request!.headers["service-signature"]);
    expect(v1).toBe(expectedV1(SECRET, t, request!.body));
    expect(verifySignature(request!.body, request!.headers["service-signature"] as string, SECRET)).toBe(true);
    expect(verifySignature(request!.body.toString("latin1"), request!.headers["service-signature"] as string, SECRET)).toBe(false);
  });

  it("signs each endpoint's delivery with that endpoint's own secret", async () => {
    const receiver = await useReceiver(200);
    const other = await useReceiver(200);
    const paysim = await useFrozenPaysim({ forwardTo: receiver.url, webhookSecret: SECRET });
    const created = await paysim.api("POST", "/v1/webhook_endpoints", { body: { url: other.url } });
    expect(created.status).toBe(201);
    await emitCreatedEvent(paysim);
    const [mine] = await receiver.waitForRequests(1);
    const [theirs] = await other.waitForRequests(1);
    expect(theirs!.body.equals(mine!.body)).toBe(true);
    expect(verifySignature(theirs!.body, theirs!.headers["service-signature"] as string, created.body.secret)).toBe(true);
    expect(verifySignature(theirs!.body, theirs!.headers["service-signature"] as string, SECRET)).toBe(false);
    expect(verifySignature(mine!.body, mine!.headers["service-signature"] as string, SECRET)).toBe(true);
  });
});

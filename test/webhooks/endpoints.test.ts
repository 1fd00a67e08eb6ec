import { beforeAll, describe, expect, it } from "vitest";
import { expectApiError } from "../helpers/errors.js";
import { createIntent, freshKey, type TestPaysim } from "../helpers/paysim.js";
import { suiteScope, useReceiver } from "../helpers/disposables.js";
import type { Receiver } from "../helpers/receiver.js";
import { advance, createEndpoint, emitCreatedEvent, eventWithDeliveries, settle, useFrozenPaysim } from "./support.js";

const ID = /^we_[0-9A-Za-z]{24}$/;

describe("the webhook endpoints API", () => {
  const thisSuite = suiteScope();
  let paysim: TestPaysim;
  beforeAll(async () => {
    paysim = await useFrozenPaysim({}, thisSuite);
  });

  it('creates an endpoint: 201, a we_ id, a whsec_ secret and enabled_events ["*"] by default', async () => {
    const response = await paysim.api("POST", "/v1/webhook_endpoints", { body: { url: "http://localhost:3000/webhooks" } });
    expect(response.status, response.text).toBe(201);
    expect(response.body).toEqual({
      id: expect.stringMatching(ID),
      object: "webhook_endpoint",
      url: "http://localhost:3000/webhooks",
      enabled_events: ["*"],
      secret: expect.stringMatching(/^whsec_[0-9A-Za-z]{16,}$/),
      chaos: null,
      created_at: expect.stringMatching(/Z$/),
      request_id: response.headers.get("request-id"),
    });
  });

  it("gives every endpoint its own secret and keeps the enabled_events given", async () => {
    const a = await createEndpoint(paysim, "https://example.test/a", ["payout.created", "payment_intent.captured"]);
    const b = await createEndpoint(paysim, "https://example.test/a");
    expect(a.enabled_events).toEqual(["payout.created", "payment_intent.captured"]);
    expect(a.secret).not.toBe(b.secret);
    expect(a.id).not.toBe(b.id);
  });

  it.each<[string, unknown]>([
    ["an ftp:// URL", "ftp://example.test/hooks"],
    ["a file:// URL", "file:///etc/passwd"],
    ["text that is not a URL", "not a url"],
    ["a host without a scheme", "example.test/hooks"],
    ["a URL with credentials", "http://user:secret@example.test/hooks"],
    ["an empty string", ""],
    ["a number", 3000],
    ["null", null],
    ["a missing url", undefined],
    ["a URL whose path holds a percent-encoded card number", "http://localhost:3000/hook/4242%204242%204242%204242"],
    ["a URL whose query holds a card number", "http://localhost:3000/hook?card=4242+4242+4242+4242"],
    ["a URL whose path holds a card number in Arabic-Indic digits", "http://localhost:3000/hook/٤٢٤٢٤٢٤٢٤٢٤٢٤٢٤٢"],
  ])("refuses %s as url with 400 param url", async (_, url) => {
    const before = (await paysim.api("GET", "/v1/webhook_endpoints")).body.data.length;
    const response = await paysim.api("POST", "/v1/webhook_endpoints", { body: url === undefined ? {} : { url } });
    expectApiError(response, 400, "invalid_request", "url");
    expect((await paysim.api("GET", "/v1/webhook_endpoints")).body.data).toHaveLength(before);
  });

  it.each<[string, unknown]>([
    ["an unknown event type", ["payment_intent.paid"]],
    ["a known type next to an unknown one", ["payout.created", "payout.sent"]],
    ["an empty list", []],
    ["a string instead of a list", "*"],
    ["a list of numbers", [1]],
  ])("refuses %s in enabled_events with 400", async (_, enabled) => {
    const response = await paysim.api("POST", "/v1/webhook_endpoints", { body: { url: "http://localhost:3000/x", enabled_events: enabled } });
    expectApiError(response, 400, "invalid_request");
    expect(response.body.error.param).toMatch(/^enabled_events(\.\d+)?$/);
  });

  it("refuses an unknown field, naming it", async () => {
    const response = await paysim.api("POST", "/v1/webhook_endpoints", { body: { url: "http://localhost:3000/x", secret: "whsec_mine_12345678" } });
    expectApiError(response, 400, "invalid_request", "secret");
  });

  it("lists the company's endpoints and reads one by id", async () => {
    const created = await createEndpoint(paysim, "http://127.0.0.1:9/list-me", ["payout.failed"]);
    const list = await paysim.api("GET", "/v1/webhook_endpoints");
    expect(list.status).toBe(200);
    expect(list.body.object).toBe("list");
    const { request_id: _r, ...resource } = created;
    expect(list.body.data).toContainEqual(resource);

    const one = await paysim.api("GET", `/v1/webhook_endpoints/${created.id}`);
    expect(one.status).toBe(200);
    expect(one.body).toEqual({ ...resource, request_id: one.headers.get("request-id") });
  });

  it("deletes an endpoint: it is gone from the list and reads as 404", async () => {
    const created = await createEndpoint(paysim, "http://127.0.0.1:9/delete-me");
    const deleted = await paysim.api("DELETE", `/v1/webhook_endpoints/${created.id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({ id: created.id, object: "webhook_endpoint", deleted: true });
    expectApiError(await paysim.api("GET", `/v1/webhook_endpoints/${created.id}`), 404, "not_found");
    expectApiError(await paysim.api("DELETE", `/v1/webhook_endpoints/${created.id}`), 404, "not_found");
    const list = await paysim.api("GET", "/v1/webhook_endpoints");
    expect(list.body.data.map((e: any) => e.id)).not.toContain(created.id);
  });

  it.each(["GET", "DELETE"])("answers 404 to %s of an unknown endpoint id", async (method) => {
    expectApiError(await paysim.api(method, "/v1/webhook_endpoints/we_000000000000000000000000"), 404, "not_found");
  });
});

describe("which endpoints receive which events", () => {
  let paysim: TestPaysim;
  const receiver = (behaviour: 200 | 500 = 200) => useReceiver(behaviour);
  const typesReceived = (r: Receiver) => r.requests.map((req) => JSON.parse(req.body.toString("utf8")).type as string);

  it("delivers to an endpoint only the event types it enabled", async () => {
    paysim = await useFrozenPaysim({ payouts: "manual" });
    const payoutsOnly = await receiver();
    const everything = await receiver();
    await createEndpoint(paysim, payoutsOnly.url, ["payout.created"]);
    await createEndpoint(paysim, everything.url);

    const intent = await createIntent(paysim, { amount: 1000 });
    await paysim.api("POST", `/v1/payment_intents/${intent.id}/authorize`, { body: {} });
    await everything.waitForRequests(3);
    await settle(paysim);
    expect(typesReceived(payoutsOnly)).toEqual([]);

    const payout = await paysim.api("POST", "/v1/payouts", {
      body: { amount: 500, currency: "EUR", destination_type: "card", destination_token: "tok_card_visa" },
      idempotencyKey: freshKey(),
    });
    expect(payout.status, payout.text).toBe(201);
    await paysim.api("POST", `/v1/sandbox/payouts/${payout.body.id}/transition`, { body: { to: "processing" } });
    await everything.waitForRequests(5);
    await settle(paysim);
    expect(typesReceived(payoutsOnly)).toEqual(["payout.created"]);
    expect(typesReceived(everything).sort()).toEqual(
      ["payment_intent.authorized", "payment_intent.captured", "payment_intent.created", "payout.created", "payout.processing"].sort(),
    );
  });

  it("does not deliver an event to an endpoint registered after it, except by resend", async () => {
    paysim = await useFrozenPaysim();
    const { eventId } = await emitCreatedEvent(paysim);
    const late = await receiver();
    const lateEndpoint = await createEndpoint(paysim, late.url);
    await advance(paysim, 2 * 86_400);
    expect(late.requests).toHaveLength(0);
    expect((await eventWithDeliveries(paysim, eventId)).deliveries).toEqual([]);

    const resent = await paysim.api("POST", `/v1/events/${eventId}/resend`);
    expect(resent.status, resent.text).toBe(200);
    expect(resent.body.id).toBe(eventId);
    expect(resent.body.deliveries).toEqual([expect.objectContaining({ endpoint_id: lateEndpoint.id, url: late.url, status: "pending" })]);
    const [request] = await late.waitForRequests(1);
    expect(request!.headers["service-event-id"]).toBe(eventId);
    const stored = paysim.store.events.byId(paysim.companies[0]!.company.id, eventId)!;
    expect(request!.body.equals(Buffer.from(stored.body))).toBe(true);
    await settle(paysim);
    expect((await eventWithDeliveries(paysim, eventId)).deliveries.map((d: any) => d.status)).toEqual(["succeeded"]);
  });

  it("resends as a new delivery to every endpoint listening now, even ones that already got the event", async () => {
    paysim = await useFrozenPaysim();
    const first = await receiver();
    const second = await receiver(500);
    const notListening = await receiver();
    await createEndpoint(paysim, first.url);
    await createEndpoint(paysim, second.url, ["payment_intent.created"]);
    await createEndpoint(paysim, notListening.url, ["payout.created"]);
    const { eventId } = await emitCreatedEvent(paysim);
    await first.waitForRequests(1);
    await second.waitForRequests(1);
    await settle(paysim);
    expect((await eventWithDeliveries(paysim, eventId)).deliveries.map((d: any) => d.status)).toEqual(["succeeded", "pending"]);

    const resent = await paysim.api("POST", `/v1/events/${eventId}/resend`);
    expect(resent.status).toBe(200);
    await first.waitForRequests(2);
    await second.waitForRequests(2);
    await settle(paysim);
    expect(notListening.requests).toHaveLength(0);
    expect(first.requests[1]!.body.equals(first.requests[0]!.body)).toBe(true);

    const { deliveries } = await eventWithDeliveries(paysim, eventId);
    expect(deliveries).toHaveLength(4);
    expect(deliveries.map((d: any) => [d.url, d.status, d.attempts.length])).toEqual([
      [first.url, "succeeded", 1],
      [second.url, "pending", 1],
      [first.url, "succeeded", 1],
      [second.url, "pending", 1],
    ]);
  });

  it("refuses a resend with an unknown body field, and creates no delivery", async () => {
    paysim = await useFrozenPaysim();
    const { eventId } = await emitCreatedEvent(paysim);
    const r = await receiver();
    await createEndpoint(paysim, r.url);
    expectApiError(await paysim.api("POST", `/v1/events/${eventId}/resend`, { body: { endpoint_id: "we_x" } }), 400, "invalid_request", "endpoint_id");
    await settle(paysim);
    expect(r.requests).toHaveLength(0);
    expect((await eventWithDeliveries(paysim, eventId)).deliveries).toEqual([]);
  });

  it("answers 404 to a resend of an unknown event, and creates no delivery", async () => {
    paysim = await useFrozenPaysim();
    const r = await receiver();
    await createEndpoint(paysim, r.url);
    expectApiError(await paysim.api("POST", "/v1/events/evt_000000000000000000000000/resend"), 404, "not_found");
    await settle(paysim);
    expect(r.requests).toHaveLength(0);
  });

  it.each([
    [500, "failed"],
    [200, "succeeded"],
  ])("records an attempt in flight when its endpoint is deleted (answer %i): %s, and nothing follows it", async (status, outcome) => {
    paysim = await useFrozenPaysim({ webhookTimeout: 600_000 });
    const hanging = await useReceiver("hang");
    const endpoint = await createEndpoint(paysim, hanging.url);
    const { eventId } = await emitCreatedEvent(paysim);
    await hanging.waitForRequests(1);
    expect((await paysim.api("DELETE", `/v1/webhook_endpoints/${endpoint.id}`)).status).toBe(200);

    hanging.release(status);
    await settle(paysim);
    const [delivery] = (await eventWithDeliveries(paysim, eventId)).deliveries;
    expect(delivery).toMatchObject({ status: outcome, next_attempt_at: null });
    expect(delivery.attempts.map((a: any) => a.status_code)).toEqual([status]);
    await advance(paysim, 2 * 86_400);
    expect(hanging.requests).toHaveLength(1);
  });

  it("stops a deleted endpoint's pending deliveries: given up, no further attempt however far the clock goes", async () => {
    paysim = await useFrozenPaysim();
    const failing = await receiver(500);
    const kept = await receiver(500);
    const endpoint = await createEndpoint(paysim, failing.url);
    await createEndpoint(paysim, kept.url);
    const { eventId } = await emitCreatedEvent(paysim);
    await failing.waitForRequests(1);
    await kept.waitForRequests(1);
    await settle(paysim);

    const deleted = await paysim.api("DELETE", `/v1/webhook_endpoints/${endpoint.id}`);
    expect(deleted.status).toBe(200);
    const [stopped, other] = (await eventWithDeliveries(paysim, eventId)).deliveries;
    expect(stopped).toMatchObject({ endpoint_id: endpoint.id, status: "failed", next_attempt_at: null });
    expect(other).toMatchObject({ status: "pending" });

    await advance(paysim, 30);
    await advance(paysim, 2 * 86_400);
    expect(failing.requests).toHaveLength(1);
    // The other endpoint's delivery keeps its schedule.
    expect(kept.requests).toHaveLength(3);

    // New events and resends no longer reach it either.
    await emitCreatedEvent(paysim);
    await paysim.api("POST", `/v1/events/${eventId}/resend`);
    await kept.waitForRequests(5);
    await settle(paysim);
    expect(failing.requests).toHaveLength(1);
  });
});

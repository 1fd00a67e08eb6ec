import { describe, expect, it } from "vitest";
import type { DeliveriesStopped, EventCreated } from "../../src/bus.js";
import { createIntent } from "../helpers/paysim.js";
import { createEndpoint, useFrozenPaysim } from "./support.js";

/**
 * The bus is the contract the live view, the log lines and the test helpers read: plain facts
 * that it owns, never store rows. These tests pin what it says about deliveries.
 */
describe("what the bus announces about deliveries", () => {
  it("announces an event with the deliveries made for it: its company's endpoints that listen to its type", async () => {
    const paysim = await useFrozenPaysim();
    // Port 9 (discard) refuses: the deliveries stay pending, so nothing races the assertions.
    const all = await createEndpoint(paysim, "http://127.0.0.1:9/all");
    await createEndpoint(paysim, "http://127.0.0.1:9/payouts-only", ["payout.created"]);
    const announced: EventCreated[] = [];
    paysim.bus.on("event.created", (event) => announced.push(event));

    const intent = await createIntent(paysim);

    expect(announced).toHaveLength(1);
    const [event] = announced;
    expect(event).toEqual({
      id: expect.stringMatching(/^evt_/),
      type: "payment_intent.created",
      objectId: intent.id,
      companyId: paysim.companies[0]!.company.id,
      requestId: expect.stringMatching(/^req_/),
      createdAt: intent.created_at,
      deliveries: [{ deliveryId: expect.any(String), endpointId: all.id, url: "http://127.0.0.1:9/all" }],
    });
    // Plain data: what survives a JSON round trip is all there is (no row, no body, no functions).
    expect(JSON.parse(JSON.stringify(event))).toEqual(event);
  });

  it("announces which deliveries stopped, and why, when their endpoint is deleted", async () => {
    const paysim = await useFrozenPaysim();
    const endpoint = await createEndpoint(paysim, "http://127.0.0.1:9/hooks");
    const created: EventCreated[] = [];
    const stopped: DeliveriesStopped[] = [];
    paysim.bus.on("event.created", (event) => created.push(event));
    paysim.bus.on("deliveries.stopped", (message) => stopped.push(message));
    await createIntent(paysim);
    await paysim.scheduler.idle();

    const response = await paysim.api("DELETE", `/v1/webhook_endpoints/${endpoint.id}`);

    expect(response.status).toBe(200);
    expect(stopped).toEqual([{ endpointId: endpoint.id, reason: "endpoint_deleted", deliveryIds: [created[0]!.deliveries[0]!.deliveryId] }]);
  });

  it("announces nothing when a delete is refused", async () => {
    const paysim = await useFrozenPaysim();
    const stopped: DeliveriesStopped[] = [];
    paysim.bus.on("deliveries.stopped", (message) => stopped.push(message));

    const response = await paysim.api("DELETE", "/v1/webhook_endpoints/we_000000000000000000000000");

    expect(response.status).toBe(404);
    expect(stopped).toEqual([]);
  });
});

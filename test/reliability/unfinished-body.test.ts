import { describe, expect, it, vi } from "vitest";
import { PER_ENDPOINT_IN_FLIGHT } from "../../src/webhooks/dispatcher.js";
import { useReceiver } from "../helpers/disposables.js";
import type { TestPaysim } from "../helpers/paysim.js";
import { createEndpoint, deliveryUpdated, eventWithDeliveries, settle, useFrozenPaysim } from "../webhooks/support.js";

/**
 * Issue 17, item 1: a receiver that answers `200` headers and never finishes the
 * body. Such an answer is no answer: the attempt times out and its connection is
 * closed, so it cannot hold a pooled connection to that host:port and block the
 * deliveries to every other endpoint there.
 */

const TIMEOUT_MS = 2000;
/** More stuck answers than one endpoint's attempts run at once, so some wait their turn. */
const STALLED = PER_ENDPOINT_IN_FLIGHT + 8;

async function ingest(p: TestPaysim, type: string, index: number): Promise<string> {
  const response = await p.api("POST", "/v1/sandbox/webhook_ingest", {
    body: { type, data: { reference: `STALL-${index}`, amount: 100 + index, currency: "EUR" } },
  });
  expect(response.status, response.text).toBe(201);
  return response.body.id;
}

describe("a receiver that answers 200 headers and never finishes the body", () => {
  it(`times each such attempt out (${STALLED} of them), closes its connection, and never holds up another endpoint on the same host:port`, async () => {
    const receiver = await useReceiver((request) => (request.url === "/stalled" ? "unfinished-body" : 200));
    const paysim = await useFrozenPaysim({ webhookTimeout: TIMEOUT_MS });
    const origin = new URL(receiver.url).origin;
    const stalled = await createEndpoint(paysim, `${origin}/stalled`, ["payment_intent.created"]);
    const healthy = await createEndpoint(paysim, `${origin}/healthy`, ["payout.created"]);

    const stalledEvents: string[] = [];
    for (let i = 0; i < STALLED; i++) stalledEvents.push(await ingest(paysim, "payment_intent.created", i));
    // As many stuck answers as paysim sends one endpoint at once are now open at the receiver.
    await receiver.waitForRequests(PER_ENDPOINT_IN_FLIGHT);

    // Another endpoint on the same host:port is delivered to meanwhile, at its first attempt.
    const healthyRecorded = deliveryUpdated(paysim, (update) => update.endpointId === healthy.id);
    const healthyEvent = await ingest(paysim, "payout.created", STALLED);
    const { eventId, status, attempt } = await healthyRecorded;
    expect(eventId).toBe(healthyEvent);
    expect(status).toBe("succeeded");
    expect(attempt).toMatchObject({ statusCode: 200, error: null });

    await settle(paysim);
    // Every stuck answer was cut off at the timeout: recorded as one, retried later, never as delivered.
    for (const eventId of stalledEvents) {
      const [recorded] = (await eventWithDeliveries(paysim, eventId)).deliveries;
      expect(recorded.endpoint_id).toBe(stalled.id);
      expect(recorded.status, eventId).toBe("pending");
      expect(recorded.attempts).toEqual([expect.objectContaining({ status_code: null, error: `timeout: no response within ${TIMEOUT_MS} ms` })]);
    }
    const paths = receiver.requests.map((request) => request.url);
    expect(paths.filter((path) => path === "/stalled")).toHaveLength(STALLED);
    expect(paths.filter((path) => path === "/healthy")).toHaveLength(1);
    // Their connections were closed by paysim, not kept for another attempt.
    await vi.waitFor(() => expect(receiver.unfinishedCount()).toBe(0));

    // The next delivery there goes through too: no cut-off connection was reused.
    const again = await ingest(paysim, "payout.created", STALLED + 1);
    await settle(paysim);
    const [next] = (await eventWithDeliveries(paysim, again)).deliveries;
    expect(next).toMatchObject({ endpoint_id: healthy.id, status: "succeeded", attempts: [expect.objectContaining({ status_code: 200, error: null })] });
  });
});

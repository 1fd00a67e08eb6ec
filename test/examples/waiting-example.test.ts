// docs/testing.md's "Waiting for events and webhooks" example, run as it is written (test/docs/examples.test.ts
// checks that the page shows it unchanged): it imports the built package by its name, as a merchant's project would.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { PaysimTimeoutError, startPaysim, type RunningPaysim } from "paysim";

// Your app's webhook handler; here a tiny server that keeps the ids of the events it got.
const received: string[] = [];
const handler = createServer((request, response) => {
  let body = "";
  request.on("data", (chunk) => (body += chunk));
  request.on("end", () => {
    received.push(JSON.parse(body).id);
    response.end();
  });
});

let paysim: RunningPaysim;

beforeAll(async () => {
  await new Promise<void>((listening) => handler.listen(0, "127.0.0.1", listening));
  const { port } = handler.address() as AddressInfo;
  paysim = await startPaysim({ forwardTo: `http://127.0.0.1:${port}/webhooks` });
});

// Every test starts from an empty sandbox; the key, the webhook endpoint and the clock stay.
beforeEach(async () => {
  await paysim.reset();
  received.length = 0;
});

afterAll(async () => {
  await paysim.close();
  handler.close();
});

async function createPaymentIntent(amount: number): Promise<{ id: string }> {
  const response = await fetch(`${paysim.url}/v1/payment_intents`, {
    method: "POST",
    headers: { Authorization: `Bearer ${paysim.secretKey}`, "Content-Type": "application/json", "Idempotency-Key": crypto.randomUUID() },
    body: JSON.stringify({ amount }),
  });
  return (await response.json()) as { id: string };
}

it("delivers payment_intent.created to the webhook handler", async () => {
  const intent = await createPaymentIntent(4200);

  // Resolves once the handler has answered with a 2xx, whether that happened already or happens later.
  const { event, delivery } = await paysim.webhooks.waitFor({ type: "payment_intent.created", objectId: intent.id });
  expect(received).toContain(event.id);
  expect(delivery.status).toBe("succeeded");

  // Every event since paysim started, oldest first, as GET /v1/events/:id shows it.
  expect(await paysim.events.list({ objectId: intent.id })).toEqual([event]);
});

it("explains what did happen when the awaited event never comes", async () => {
  await createPaymentIntent(1500);
  const waiting = paysim.events.waitFor({ type: "payment_intent.captured" }, { timeout: 100 });
  await expect(waiting).rejects.toThrow(PaysimTimeoutError);
  await expect(waiting).rejects.toThrow(/The last 1 event\(s\), oldest first:\n {2}payment_intent\.created pi_/);
});

it("made none of the integration mistakes paysim's run report watches for", async () => {
  // A lost creation retried under a new key, a 4xx sent again and again, polling…: see the findings.
  expect((await paysim.report()).findings).toEqual([]);
});

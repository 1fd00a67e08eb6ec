// docs/testing.md's reset example, run as it is written (test/docs/examples.test.ts checks that the
// page shows it unchanged): it imports the built package by its name, as a merchant's project would.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { startPaysim, type RunningPaysim } from "paysim";

let paysim: RunningPaysim;

beforeAll(async () => {
  paysim = await startPaysim();
});

// Every test starts from an empty sandbox; the key, the endpoints and the clock stay.
beforeEach(() => paysim.reset());

afterAll(() => paysim.close());

async function listPaymentIntents() {
  const response = await fetch(`${paysim.url}/v1/payment_intents`, { headers: { Authorization: `Bearer ${paysim.secretKey}` } });
  return ((await response.json()) as { data: unknown[] }).data;
}

it.each([1, 2])("sees only the payment intent it made itself (run %i)", async () => {
  await fetch(`${paysim.url}/v1/payment_intents`, {
    method: "POST",
    headers: { Authorization: `Bearer ${paysim.secretKey}`, "Content-Type": "application/json", "Idempotency-Key": randomUUID() },
    body: JSON.stringify({ amount: 1000 }),
  });

  expect(await listPaymentIntents()).toHaveLength(1);
});

it("made none of the integration mistakes paysim's run report watches for", async () => {
  // A lost creation retried under a new key, a 4xx sent again and again, polling…: see the findings.
  expect((await paysim.report()).findings).toEqual([]);
});

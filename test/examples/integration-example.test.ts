// docs/testing.md's integration example, run as it is written (test/docs/examples.test.ts checks
// that the page shows it unchanged): it imports the built package by its name, as a merchant's project would.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startPaysim, type RunningPaysim } from "paysim";

let paysim: RunningPaysim;

beforeAll(async () => {
  // Port 0 and an in-memory database: nothing to clean up, nothing shared between runs.
  paysim = await startPaysim({ secretKey: "sk_test_my_shop_0001" });
});

afterAll(() => paysim.close());

/** Your own API client, pointed at paysim instead of the real sandbox. */
async function api(method: string, path: string, body?: object) {
  const response = await fetch(`${paysim.url}${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${paysim.secretKey}`,
      "Content-Type": "application/json",
      "Idempotency-Key": randomUUID(),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as any };
}

it("captures a payment authorized with a test card", async () => {
  const intent = await api("POST", "/v1/payment_intents", { amount: 4200, currency: "EUR", capture_method: "manual" });
  await api("POST", `/v1/payment_intents/${intent.body.id}/authorize`, { payment_method: "pm_card_visa" });
  const captured = await api("POST", `/v1/payment_intents/${intent.body.id}/capture`);

  expect(captured.body.state).toBe("captured");
  expect(captured.body.card).toEqual({ last4: "4242", brand: "visa" });
});

it("reports a declined card", async () => {
  const intent = await api("POST", "/v1/payment_intents", { amount: 4200 });
  const declined = await api("POST", `/v1/payment_intents/${intent.body.id}/authorize`, { payment_method: "pm_card_declined" });

  expect(declined.body.state).toBe("failed");
  expect(declined.body.failure_reason).toBe("card_declined");
});

it("pays out once the clock has moved on", async () => {
  const payout = await api("POST", "/v1/payouts", {
    amount: 1500,
    currency: "EUR",
    destination_type: "card",
    destination_token: "tok_card_visa",
  });
  expect(payout.body.status).toBe("pending");

  // No sleeping: move virtual time; due payout moves are done before this resolves.
  await paysim.clock.advance("10s");

  const paid = await api("GET", `/v1/payouts/${payout.body.id}`);
  expect(paid.body.status).toBe("succeeded");
});

it("made none of the integration mistakes paysim's run report watches for", async () => {
  // A lost creation retried under a new key, a 4xx sent again and again, polling…: see the findings.
  expect((await paysim.report()).findings).toEqual([]);
});

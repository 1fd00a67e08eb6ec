// docs/faults.md's worked example, run as it is written (test/docs/examples.test.ts checks that the
// page shows it unchanged): it imports the built package by its name, as a merchant's project would.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { startPaysim, type RunningPaysim } from "paysim";

let paysim: RunningPaysim;

beforeAll(async () => {
  paysim = await startPaysim();
});

beforeEach(() => paysim.reset()); // removes the fault rules too

afterAll(() => paysim.close());

/**
 * Your client: a timeout on every try, retries on no answer, 429 and 5xx, and ONE Idempotency-Key
 * for the payment, sent again with every retry.
 */
async function createPaymentIntent(amount: number, { tries = 4, timeoutMs = 1000 } = {}) {
  const idempotencyKey = randomUUID();
  let lastProblem: unknown;
  for (let attempt = 1; attempt <= tries; attempt++) {
    try {
      const response = await fetch(`${paysim.url}/v1/payment_intents`, {
        method: "POST",
        headers: { Authorization: `Bearer ${paysim.secretKey}`, "Content-Type": "application/json", "Idempotency-Key": idempotencyKey },
        body: JSON.stringify({ amount }),
        signal: AbortSignal.timeout(timeoutMs),
      });
      if (response.status !== 429 && response.status < 500) return (await response.json()) as { id: string };
      lastProblem = new Error(`HTTP ${response.status}`);
    } catch (error) {
      lastProblem = error; // no answer: the connection was lost, or the timeout ran out
    }
  }
  throw lastProblem;
}

it("makes exactly one payment when the answer is lost and the retry fails", async () => {
  const creations = { method: "POST", path: "/v1/payment_intents" } as const;
  // Rules are tried oldest first: the 1st try is made but its answer lost, the 2nd gets a 500.
  await paysim.faults.add({ fault: "lost_response", match: creations });
  await paysim.faults.add({ fault: "server_error", match: creations });

  const intent = await createPaymentIntent(4200);

  const created = await paysim.events.list({ type: "payment_intent.created" });
  expect(created.map((event) => event.data.id)).toEqual([intent.id]);
});

it("makes exactly one payment when the first try times out", async () => {
  // No answer for 5 s: longer than the client waits.
  await paysim.faults.add({ fault: "timeout", latency_ms: 5000 });

  const intent = await createPaymentIntent(4200);

  expect((await paysim.events.list({ type: "payment_intent.created" })).map((event) => event.data.id)).toEqual([intent.id]);
});

it("made none of the integration mistakes paysim's run report watches for", async () => {
  // A lost creation retried under a new key, a 4xx sent again and again, polling…: see the findings.
  expect((await paysim.report()).findings).toEqual([]);
});

import { describe, expect, it } from "vitest";
import { usePaysimApp } from "../helpers/disposables.js";
import { expectApiError } from "../helpers/errors.js";
import { freshKey } from "../helpers/paysim.js";

/** A double whose shortest text holds 17 digits in a row. */
const LONG_FRACTION = 0.30000000000000004;
const THIRTEEN_DIGITS = 1_000_000_000_000;

describe("JSON numbers are validated as the numbers they are, never masked into text (issue 28 item 2)", () => {
  it("takes a fault rule whose probability prints with 17 digits and a 13-digit seed, and answers them unchanged", async () => {
    const paysim = await usePaysimApp();
    const added = await paysim.api("POST", "/v1/sandbox/faults", {
      raw: '{"fault": "latency", "latency_ms": 1, "probability": 0.30000000000000004, "seed": 1000000000000}',
      contentType: "application/json",
    });
    expect(added.status, added.text).toBe(201);
    expect(added.body).toMatchObject({ probability: LONG_FRACTION });
    const [listed] = (await paysim.api("GET", "/v1/sandbox/faults")).body.data;
    expect(listed.probability).toBe(LONG_FRACTION);
  });

  it("takes webhook chaos whose duplicate, reorder and seed print with 13 or more digits", async () => {
    const paysim = await usePaysimApp();
    const chaos = { duplicate: LONG_FRACTION, reorder: 0.1234567890123456, seed: THIRTEEN_DIGITS };
    const created = await paysim.api("POST", "/v1/webhook_endpoints", { body: { url: "http://127.0.0.1:9/hook", chaos } });
    expect(created.status, created.text).toBe(201);
    expect(created.body.chaos).toMatchObject(chaos);
  });

  it("refuses a fractional payout transition amount for what it is, not as a string", async () => {
    const paysim = await usePaysimApp({ payouts: "manual" });
    const payout = (
      await paysim.api("POST", "/v1/payouts", {
        body: { amount: 5000, currency: "EUR", destination_type: "card", destination_token: "tok_card_visa" },
        idempotencyKey: freshKey(),
      })
    ).body;
    for (const to of ["processing", "succeeded"])
      expect((await paysim.api("POST", `/v1/sandbox/payouts/${payout.id}/transition`, { body: { to } })).status).toBe(200);
    const refused = await paysim.api("POST", `/v1/sandbox/payouts/${payout.id}/transition`, { body: { to: "partially_reversed", amount: 1200.0000000000002 } });
    expectApiError(refused, 400, "invalid_request", "amount");
    expect(refused.body.error.message).toContain("an integer greater than 0 and less than the payout amount");
    expect(refused.body.error.message).not.toContain("got a string");
  });

  it("still masks a card number sent as text, and one sent as a number in a card-number field", async () => {
    const paysim = await usePaysimApp();
    const created = await paysim.api("POST", "/v1/payment_intents", {
      body: { amount: 1000, description: "card 4242424242424242" },
      idempotencyKey: freshKey(),
    });
    expect(created.body.description).toBe("card ************4242");
    const numeric = await paysim.api("POST", "/v1/payment_intents", { body: { amount: 1000, card_number: 4242424242424242 }, idempotencyKey: freshKey() });
    expectApiError(numeric, 400, "invalid_request", "card_number");
    expect(numeric.text).not.toContain("4242424242424242");
  });
});

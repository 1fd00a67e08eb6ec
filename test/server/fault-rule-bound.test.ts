import { describe, expect, it } from "vitest";
import { MAX_ACTIVE_FAULT_RULES } from "../../src/domain/faults.js";
import { usePaysim, usePaysimApp } from "../helpers/disposables.js";
import { expectApiError } from "../helpers/errors.js";
import { createIntent } from "../helpers/paysim.js";

const KEY_A = "sk_test_bound_a_0001";
const KEY_B = "sk_test_bound_b_0001";
const TWO_COMPANIES = {
  companies: [
    { name: "A", currency: "EUR", secret_key: KEY_A, webhook_endpoints: [] },
    { name: "B", currency: "EUR", secret_key: KEY_B, webhook_endpoints: [] },
  ],
};

describe("the bound on a company's fault rules (issue 28 item 3)", () => {
  it(`holds ${MAX_ACTIVE_FAULT_RULES} active rules, refuses one more by name and stores nothing, until rules are deleted`, async () => {
    const paysim = await usePaysimApp({ config: TWO_COMPANIES });
    const add = (rule: object, key = KEY_A) => paysim.api("POST", "/v1/sandbox/faults", { body: rule, key });
    const ids: string[] = [];
    for (let i = 0; i < MAX_ACTIVE_FAULT_RULES; i++) {
      const added = await add({ fault: "server_error", match: { method: "DELETE", path: `/v1/payouts/*/r${i}` } });
      expect(added.status, added.text).toBe(201);
      ids.push(added.body.id);
    }
    const refused = await add({ fault: "server_error" });
    expectApiError(refused, 400, "invalid_request", "faults");
    expect(refused.body.error.message).toBe(
      "This company already has 100 active fault rules, the most it may hold: delete rules (DELETE /v1/sandbox/faults/:id, or DELETE /v1/sandbox/faults for all) before adding another.",
    );
    expect((await paysim.api("GET", "/v1/sandbox/faults?limit=100", { key: KEY_A })).body.data).toHaveLength(MAX_ACTIVE_FAULT_RULES);
    // Another company's rules are its own count.
    expect((await add({ fault: "server_error" }, KEY_B)).status).toBe(201);
    // One deleted, one more fits.
    expect((await paysim.api("DELETE", `/v1/sandbox/faults/${ids[0]}`, { key: KEY_A })).status).toBe(200);
    expect((await add({ fault: "server_error", match: { method: "DELETE", path: "/v1/payouts/*/again" } })).status).toBe(201);
    expectApiError(await add({ fault: "server_error" }), 400, "invalid_request", "faults");
  });

  it("spends no write on rules that cannot hit a request: other paths and methods, or probability 0", async () => {
    const paysim = await usePaysim({ config: TWO_COMPANIES });
    for (let i = 0; i < MAX_ACTIVE_FAULT_RULES / 2; i++) {
      await paysim.api("POST", "/v1/sandbox/faults", { body: { fault: "server_error", match: { method: "DELETE", path: `/v1/payouts/*/r${i}` } }, key: KEY_A });
      await paysim.api("POST", "/v1/sandbox/faults", {
        body: { fault: "server_error", match: { path: "/v1/payment_intents/*" }, probability: 0, seed: i },
        key: KEY_A,
      });
    }
    const intent = await createIntent(paysim, { amount: 1000 }, KEY_A);
    for (let i = 0; i < 20; i++) expect((await paysim.api("GET", `/v1/payment_intents/${intent.id}`, { key: KEY_A })).status).toBe(200);
    // B, which has no rule, is served alongside.
    expect((await paysim.api("GET", "/v1/payment_intents", { key: KEY_B })).status).toBe(200);
    const matched = paysim.store.db.prepare("SELECT SUM(matched) FROM fault_rules").pluck().get();
    expect(matched).toBe(0);
    expect((await paysim.api("GET", "/v1/sandbox/faults?limit=100", { key: KEY_A })).body.data.every((rule: any) => rule.remaining === 1)).toBe(true);
  });
});

describe("fault rules match the path routing serves (issue 28 item 4)", () => {
  it("a rule and a request match whichever of them is percent-encoded, as routing reads both", async () => {
    const paysim = await usePaysim();
    const post = (path: string) =>
      fetch(`${paysim.url}${path}`, {
        method: "POST",
        headers: { Authorization: `Bearer ${paysim.secretKey}`, "Content-Type": "application/json", "Idempotency-Key": `k-${path}-${Math.random()}` },
        body: '{"amount":100}',
      });
    expect(
      (await paysim.api("POST", "/v1/sandbox/faults", { body: { fault: "rate_limited", match: { path: "/v1/payment%5Fintents" }, times: 2 } })).status,
    ).toBe(201);
    expect((await post("/v1/payment_intents")).status).toBe(429);
    expect((await post("/v1/payment%5fintents")).status).toBe(429);
    expect((await post("/v1/payment_intents")).status).toBe(201);

    expect(
      (await paysim.api("POST", "/v1/sandbox/faults", { body: { fault: "server_error", match: { method: "POST", path: "/v1/payment_intents" } } })).status,
    ).toBe(201);
    const encoded = await post("/v1/payment%5Fintents");
    expect(encoded.status).toBe(500);
    expect(((await encoded.json()) as any).error.message).toContain("Injected by fault flt_");
  });
});

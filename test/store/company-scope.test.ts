// A company's rows are changed only by statements that name the company: a move made with
// another company's id changes nothing, whatever the id and state say.
import { describe, expect, it } from "vitest";
import { createStore } from "../../src/store/index.js";
import { useDatabase } from "../helpers/disposables.js";

const NOW = "2026-01-01T00:00:00.000Z";

function storeWithTwoCompanies() {
  const store = createStore(useDatabase(":memory:"));
  for (const id of ["co_a", "co_b"]) store.companies.insert({ id, name: id, currency: "EUR", is_default: id === "co_a" ? 1 : 0, created_at: NOW });
  return store;
}

describe("a move of a company's row", () => {
  it("of a payout names the company: another company's id moves nothing", () => {
    const store = storeWithTwoCompanies();
    const payout = store.payouts.insert({
      id: "po_1",
      company_id: "co_a",
      reference: "POUT-0000000001",
      amount: 500,
      currency: "EUR",
      status: "pending",
      destination_type: "account",
      destination_token: "tok_account_fr",
      destination_masked: "FR** **** 0000",
      description: null,
      failure_reason: null,
      amount_reversed: 0,
      created_at: NOW,
      updated_at: NOW,
    });
    expect(payout.seq).toBeGreaterThan(0);
    expect(() => store.payouts.update({ ...payout, company_id: "co_b", status: "processing" }, "pending")).toThrow(/was not in status pending/);
    expect(store.payouts.byId("co_a", "po_1")?.status).toBe("pending");
    expect(store.payouts.update({ ...payout, status: "processing" }, "pending").status).toBe("processing");
  });

  it("of a payment intent names the company: another company's id moves nothing", () => {
    const store = storeWithTwoCompanies();
    const intent = store.paymentIntents.insert({
      id: "pi_1",
      company_id: "co_a",
      reference: "PAY-0000000001",
      amount: 500,
      currency: "EUR",
      description: null,
      capture_method: "automatic",
      state: "created",
      card_last4: null,
      card_brand: null,
      failure_reason: null,
      created_at: NOW,
      updated_at: NOW,
    });
    expect(() => store.paymentIntents.update({ ...intent, company_id: "co_b", state: "canceled" }, "created")).toThrow(/was not in state created/);
    expect(store.paymentIntents.byId("co_a", "pi_1")?.state).toBe("created");
  });
});

import { describe, expect, it } from "vitest";
import { Bus } from "../../src/bus.js";
import { createIds } from "../../src/domain/ids.js";
import { createClock } from "../../src/runtime/clock.js";
import { createPaymentIntentService } from "../../src/services/payment-intents.js";
import { createPayoutService } from "../../src/services/payouts.js";
import { createUnitOfWork } from "../../src/services/unit-of-work.js";
import { createStore } from "../../src/store/index.js";
import { openDatabase } from "../../src/store/open.js";
import { seededSource } from "../helpers/seeded-random.js";

const T0 = Date.parse("2030-01-01T00:00:00.000Z");
const COMPANY = { id: "co_test", name: "Test", currency: "EUR", is_default: 1, created_at: new Date(T0).toISOString() };
const DESTINATIONS = [{ token: "tok_card_visa", type: "card", outcome: "succeeded", masked: "**** 4242", description: "Visa" }] as const;

/** The ids one run of the services makes on a fresh database, from ids drawn with `seed`. */
function idsOfOneRun(seed: number): string[] {
  const db = openDatabase(":memory:");
  try {
    const store = createStore(db);
    store.companies.insert(COMPANY);
    const clock = createClock({ realNow: () => T0 });
    const ids = createIds(seededSource(seed));
    const unitOfWork = createUnitOfWork(store, new Bus(), clock, ids);
    const intents = createPaymentIntentService({ store, clock, testCards: [], baseUrl: () => "http://127.0.0.1", ids });
    const payouts = createPayoutService({ store, clock, ids, destinations: DESTINATIONS, planner: { plan() {}, cancelObsolete() {} } });
    const intent = unitOfWork("req_1", (work) => intents.create(work, COMPANY, { amount: 1000 }));
    const payout = unitOfWork("req_2", (work) =>
      payouts.create(work, COMPANY, { amount: 500, currency: "EUR", destination_type: "card", destination_token: "tok_card_visa" }),
    );
    const events = db.prepare("SELECT id FROM events ORDER BY seq").pluck().all() as string[];
    return [intent.id, intent.reference, payout.id, payout.reference, ...events];
  } finally {
    db.close();
  }
}

describe("an instance's ids come from its own source", () => {
  it("replays the ids of objects, references and events from the same seed", () => {
    const first = idsOfOneRun(42);
    expect(first).toHaveLength(6);
    expect(first[0]).toMatch(/^pi_/);
    expect(first[2]).toMatch(/^po_/);
    expect(first.slice(4).every((id) => id.startsWith("evt_"))).toBe(true);
    expect(idsOfOneRun(42)).toEqual(first);
  });

  it("makes other ids from another seed", () => {
    const [a, b] = [idsOfOneRun(42), idsOfOneRun(43)];
    for (let i = 0; i < a.length; i++) expect(b[i]).not.toBe(a[i]);
  });
});

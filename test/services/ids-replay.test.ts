import { describe, expect, it } from "vitest";
import { Bus } from "../../src/bus.js";
import { createIds } from "../../src/domain/ids.js";
import { createClock } from "../../src/runtime/clock.js";
import { createPaymentIntentService } from "../../src/resources/payment-intents/service.js";
import { createPayoutService } from "../../src/resources/payouts/service.js";
import { createPayoutsRepo } from "../../src/resources/payouts/store.js";
import { createPaymentIntentsRepo } from "../../src/resources/payment-intents/store.js";
import { createUnitOfWork } from "../../src/services/unit-of-work.js";
import { createStore } from "../../src/store/index.js";
import { openDatabase } from "../../src/store/open.js";
import { usePaysimApp, useReceiver } from "../helpers/disposables.js";
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
    const bus = new Bus();
    const unitOfWork = createUnitOfWork(store, bus, clock, ids);
    const intents = createPaymentIntentService({ repo: createPaymentIntentsRepo(db), clock, testCards: [], baseUrl: () => "http://127.0.0.1", ids, bus });
    const payouts = createPayoutService({ repo: createPayoutsRepo(db), clock, ids, destinations: DESTINATIONS, bus }, { plan() {}, cancelObsolete() {} });
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

/**
 * The ids a whole instance makes for the same calls, its random bytes drawn from `seed`: the
 * generated key, the company, a --forward-to endpoint and one created through the API (ids and
 * secrets), a payment intent, a payout moved on by the scheduler's jobs, and every event (with its
 * request id) and delivery these made. The clock moves only when told, so ordered ids and
 * references read the same time in every run; each call's delivery attempts finish before the
 * next call, so no job draws an id between a call's draws.
 */
async function idsOfOneInstance(seed: number, receiverUrl: string) {
  const paysim = await usePaysimApp({ random: seededSource(seed), realNow: () => T0, forwardTo: `${receiverUrl}/forwarded` });
  const endpoint = await paysim.api("POST", "/v1/webhook_endpoints", { body: { url: `${receiverUrl}/created` } });
  expect(endpoint.status).toBe(201);
  await paysim.scheduler.idle();
  const intent = await paysim.api("POST", "/v1/payment_intents", { body: { amount: 1000 }, idempotencyKey: "replay-intent" });
  expect(intent.status).toBe(201);
  await paysim.scheduler.idle();
  const payout = await paysim.api("POST", "/v1/payouts", {
    body: { amount: 500, currency: "EUR", destination_type: "card", destination_token: "tok_card_visa" },
    idempotencyKey: "replay-payout",
  });
  expect(payout.status).toBe(201);
  await paysim.scheduler.idle();
  // Its moves to processing and succeeded run as the scheduler's jobs, under request ids of their own.
  await paysim.advanceClock(10);
  await paysim.scheduler.idle();
  const forwarded = paysim.forwardEndpoints[0]!;
  const events = paysim.store.db.prepare("SELECT id, type, request_id FROM events ORDER BY seq").all() as { id: string; type: string; request_id: string }[];
  const deliveries = paysim.store.db.prepare("SELECT id FROM deliveries ORDER BY id").pluck().all() as string[];
  await paysim.dispose();
  return {
    secretKey: paysim.secretKey,
    companyId: paysim.companies[0]!.company.id,
    endpoints: [forwarded.id, forwarded.secret, endpoint.body.id as string, endpoint.body.secret as string],
    objects: [intent.body.id as string, intent.body.reference as string, payout.body.id as string, payout.body.reference as string],
    events,
    deliveries,
  };
}

describe("an instance's ids come from its own source", () => {
  it("replays every id and secret of a whole instance, built with a seeded source, for the same calls", async () => {
    const receiver = await useReceiver(200);
    const first = await idsOfOneInstance(42, receiver.url);
    expect(first.secretKey).toMatch(/^sk_test_/);
    expect(first.companyId).toMatch(/^co_/);
    expect(first.endpoints.map((id) => id.split("_")[0])).toEqual(["we", "whsec", "we", "whsec"]);
    expect(first.objects.map((id) => id.split(/[_-]/)[0])).toEqual(["pi", "PAY", "po", "POUT"]);
    expect(first.events.map((event) => event.type)).toEqual(["payment_intent.created", "payout.created", "payout.processing", "payout.succeeded"]);
    expect(first.events.every((event) => event.id.startsWith("evt_") && event.request_id.startsWith("req_"))).toBe(true);
    // Every request and job ran under a request id of its own.
    expect(new Set(first.events.map((event) => event.request_id)).size).toBe(4);
    expect(first.deliveries).toHaveLength(8);
    expect(first.deliveries.every((id) => id.startsWith("del_"))).toBe(true);
    expect(receiver.requests).toHaveLength(8);

    expect(await idsOfOneInstance(42, receiver.url)).toEqual(first);

    const other = await idsOfOneInstance(43, receiver.url);
    const flat = (run: typeof first) => [
      run.secretKey,
      run.companyId,
      ...run.endpoints,
      ...run.objects,
      ...run.events.flatMap((event) => [event.id, event.request_id]),
      ...run.deliveries,
    ];
    const [a, b] = [flat(first), flat(other)];
    expect(b).toHaveLength(a.length);
    for (let i = 0; i < a.length; i++) expect(b[i]).not.toBe(a[i]);
  });

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

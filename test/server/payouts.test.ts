import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { suiteScope, usePaysimApp, useTempPath } from "../helpers/disposables.js";
import { expectApiError } from "../helpers/errors.js";
import { manualTimers } from "../helpers/manual-timers.js";
import { eventsSince, freshKey, newestEventId, type TestPaysim } from "../helpers/paysim.js";

const ACME = "sk_test_acme_payouts_0001";
const GLOBEX = "sk_test_globex_payouts_0001";

const thisFile = suiteScope();
let paysim: TestPaysim;
beforeAll(async () => {
  paysim = await usePaysimApp(
    {
      db: useTempPath("paysim.db", "paysim-test-", thisFile),
      config: {
        companies: [
          { name: "Acme", currency: "EUR", secret_key: ACME },
          { name: "Globex", currency: "USD", secret_key: GLOBEX },
        ],
      } as never,
    },
    thisFile,
  );
});

const CARD = { amount: 5000, currency: "EUR", destination_type: "card", destination_token: "tok_card_visa" };

async function createPayout(body: object = CARD, key = ACME) {
  const response = await paysim.api("POST", "/v1/payouts", { body, idempotencyKey: freshKey(), key });
  expect(response.status, response.text).toBe(201);
  return response.body;
}

const get = async (id: string, key = ACME) => (await paysim.api("GET", `/v1/payouts/${id}`, { key })).body;
const transition = (id: string, body: object, key = ACME) => paysim.api("POST", `/v1/sandbox/payouts/${id}/transition`, { body, key });

describe("POST /v1/payouts", () => {
  it("creates a pending payout with every documented field and a payout.created event", async () => {
    const before = await newestEventId(paysim, ACME);
    const payout = await createPayout({ ...CARD, description: "Weekly settlement" });
    expect(payout).toMatchObject({
      object: "payout",
      amount: 5000,
      currency: "EUR",
      status: "pending",
      destination_type: "card",
      destination_masked: "**** 4242",
      description: "Weekly settlement",
      failure_reason: null,
      amount_reversed: 0,
    });
    expect(payout.id).toMatch(/^po_[0-9A-Za-z]{24}$/);
    expect(payout.reference).toMatch(/^POUT-[0-9A-Z]{10}$/);
    expect(payout.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(payout.updated_at).toBe(payout.created_at);
    const events = await eventsSince(paysim, before, ACME);
    expect(events.map((e) => [e.type, e.data.id, e.request_id])).toEqual([["payout.created", payout.id, payout.request_id]]);
  });

  it.each([
    ["account", "tok_account_fr", /^FR76 \*{4} \*{4} 0189$/],
    ["wallet", "tok_wallet", /^j\*{3}@example\.com$/],
    ["card", "tok_card_mastercard", /^\*{4} 4444$/],
  ])("masks a %s destination (%s)", async (destination_type, destination_token, masked) => {
    const payout = await createPayout({ ...CARD, destination_type, destination_token });
    expect(payout.destination_masked).toMatch(masked);
  });

  it.each([
    [{ ...CARD, amount: 0 }, "amount"],
    [{ ...CARD, amount: 1.5 }, "amount"],
    [{ ...CARD, amount: "5000" }, "amount"],
    [{ currency: "EUR", destination_type: "card", destination_token: "tok_card_visa" }, "amount"],
    [{ ...CARD, currency: undefined }, "currency"],
    [{ ...CARD, currency: "eur" }, "currency"],
    [{ ...CARD, destination_type: "iban" }, "destination_type"],
    [{ ...CARD, destination_type: undefined }, "destination_type"],
    [{ ...CARD, destination_token: undefined }, "destination_token"],
    [{ ...CARD, destination_token: 42 }, "destination_token"],
    [{ ...CARD, destination_token: "tok_unknown" }, "destination_token"],
    [{ ...CARD, destination_type: "wallet" }, "destination_token"],
    [{ ...CARD, description: 7 }, "description"],
    [{ ...CARD, capture_method: "manual" }, "capture_method"],
  ])("refuses %o naming %s, creating nothing", async (body, param) => {
    const before = await newestEventId(paysim, ACME);
    const response = await paysim.api("POST", "/v1/payouts", { body, idempotencyKey: freshKey(), key: ACME });
    expectApiError(response, 400, "invalid_request", param);
    expect(await newestEventId(paysim, ACME)).toBe(before);
  });

  it("names the kind of a token that does not match destination_type, with its article", async () => {
    const response = await paysim.api("POST", "/v1/payouts", { body: { ...CARD, destination_token: "tok_account_fr" }, idempotencyKey: freshKey(), key: ACME });
    expectApiError(response, 400, "invalid_request", "destination_token");
    expect(response.body.error.message).toBe('destination_token tok_account_fr is an account token but destination_type is "card".');
  });

  it("requires an Idempotency-Key", async () => {
    expectApiError(await paysim.api("POST", "/v1/payouts", { body: CARD, key: ACME }), 400, "invalid_request", "Idempotency-Key");
  });

  it("replays a creation with the same key and refuses the key with another body", async () => {
    const idempotencyKey = freshKey();
    const first = await paysim.api("POST", "/v1/payouts", { body: CARD, idempotencyKey, key: ACME });
    const replay = await paysim.api("POST", "/v1/payouts", {
      body: { destination_token: "tok_card_visa", destination_type: "card", currency: "EUR", amount: 5000 },
      idempotencyKey,
      key: ACME,
    });
    expect(replay.status).toBe(201);
    expect(replay.text).toBe(first.text);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    const conflict = await paysim.api("POST", "/v1/payouts", { body: { ...CARD, amount: 5001 }, idempotencyKey, key: ACME });
    expectApiError(conflict, 409, "idempotency_conflict");
  });

  it("refuses a clear card number with a message that a token is required, leaving no trace of it", async () => {
    const pan = "4111111111111111";
    const fullWidth = "４１１１ １１１１ １１１１ １１１１";
    for (const token of [pan, "4111 1111 1111 1111", "4111-1111-1111-1111", fullWidth, "4111\u200b1111\u200b1111\u200b1111"]) {
      const response = await paysim.api("POST", "/v1/payouts", { body: { ...CARD, destination_token: token }, idempotencyKey: freshKey(), key: ACME });
      expectApiError(response, 400, "invalid_request", "destination_token");
      expect(response.body.error.message).toMatch(/token.*never a card number/);
      expect(response.text).not.toContain("1111111111");
      expect(response.text).not.toContain("１１１１ １１１１");
    }
    // Also in a description: kept masked.
    const payout = await createPayout({ ...CARD, description: `refund to ${pan}` });
    expect(payout.description).toBe("refund to ************1111");
    const files = [paysim.dbPath, `${paysim.dbPath}-wal`].map((file) => {
      try {
        return readFileSync(file).toString("latin1");
      } catch {
        return "";
      }
    });
    for (const content of files) expect(content).not.toContain(pan);
  });
});

describe("GET /v1/payouts", () => {
  it("lists newest first, filters by status and pages with starting_after", async () => {
    const made = [
      await createPayout(CARD, GLOBEX),
      await createPayout(CARD, GLOBEX),
      await createPayout({ ...CARD, destination_token: "tok_card_fail" }, GLOBEX),
    ];
    const page1 = await paysim.api("GET", "/v1/payouts?limit=2", { key: GLOBEX });
    expect(page1.body.object).toBe("list");
    expect(page1.body.data.map((p: any) => p.id)).toEqual([made[2].id, made[1].id]);
    expect(page1.body.has_more).toBe(true);
    const page2 = await paysim.api("GET", `/v1/payouts?limit=2&starting_after=${made[1].id}`, { key: GLOBEX });
    expect(page2.body.data.map((p: any) => p.id)).toContain(made[0].id);
    await transition(made[2].id, { to: "failed" }, GLOBEX);
    const failed = await paysim.api("GET", "/v1/payouts?status=failed", { key: GLOBEX });
    expect(failed.body.data.map((p: any) => p.id)).toEqual([made[2].id]);
  });

  it.each(["status=done", "limit=0", "limit=101", "state=pending"])("refuses ?%s", async (query) => {
    const response = await paysim.api("GET", `/v1/payouts?${query}`, { key: ACME });
    expectApiError(response, 400, "invalid_request", query.split("=")[0]);
  });
});

describe("payout simulation (--payouts auto) reached by advancing the clock", () => {
  it.each([
    ["card", "tok_card_visa", "succeeded", null],
    ["card", "tok_card_mastercard", "succeeded", null],
    ["card", "tok_card_fail", "failed", "destination_rejected"],
    ["card", "tok_card_return", "returned", "returned_by_bank"],
    ["account", "tok_account_fr", "succeeded", null],
    ["account", "tok_account_fail", "failed", "destination_rejected"],
    ["account", "tok_account_return", "returned", "returned_by_bank"],
    ["wallet", "tok_wallet", "succeeded", null],
    ["wallet", "tok_wallet_fail", "failed", "destination_rejected"],
    ["wallet", "tok_wallet_return", "returned", "returned_by_bank"],
  ])("%s %s ends %s", async (destination_type, destination_token, status, reason) => {
    const local = await usePaysimApp();
    const created = (await local.api("POST", "/v1/payouts", { body: { ...CARD, destination_type, destination_token }, idempotencyKey: freshKey() })).body;
    await local.api("POST", "/v1/sandbox/clock/advance", { body: { seconds: 1 } });
    expect((await local.api("GET", `/v1/payouts/${created.id}`)).body.status).toBe("pending");
    await local.api("POST", "/v1/sandbox/clock/advance", { body: { seconds: 1 } });
    const at2 = (await local.api("GET", `/v1/payouts/${created.id}`)).body;
    expect(at2.status).toBe(status === "succeeded" ? "processing" : status);
    await local.api("POST", "/v1/sandbox/clock/advance", { body: { seconds: 3 } });
    const final = (await local.api("GET", `/v1/payouts/${created.id}`)).body;
    expect(final).toMatchObject({ status, failure_reason: reason });
    const types = (await eventsSince(local, undefined)).map((e) => e.type);
    expect(types).toEqual(status === "succeeded" ? ["payout.created", "payout.processing", "payout.succeeded"] : ["payout.created", `payout.${status}`]);
  });

  it("gives a simulated move a request_id of its own", async () => {
    const local = await usePaysimApp();
    const created = (await local.api("POST", "/v1/payouts", { body: CARD, idempotencyKey: freshKey() })).body;
    await local.api("POST", "/v1/sandbox/clock/advance", { body: { seconds: 10 } });
    const events = await eventsSince(local, undefined);
    const ids = events.map((e) => e.request_id);
    expect(ids[0]).toBe(created.request_id);
    expect(new Set(ids).size).toBe(3);
    for (const id of ids) expect(id).toMatch(/^req_[0-9A-Za-z]{24}$/);
  });

  it("drops automatic moves that a manual move made obsolete", async () => {
    const local = await usePaysimApp();
    const failedByHand = (await local.api("POST", "/v1/payouts", { body: CARD, idempotencyKey: freshKey() })).body;
    const processingByHand = (await local.api("POST", "/v1/payouts", { body: CARD, idempotencyKey: freshKey() })).body;
    expect((await local.api("POST", `/v1/sandbox/payouts/${failedByHand.id}/transition`, { body: { to: "failed" } })).status).toBe(200);
    expect((await local.api("POST", `/v1/sandbox/payouts/${processingByHand.id}/transition`, { body: { to: "processing" } })).status).toBe(200);
    await local.api("POST", "/v1/sandbox/clock/advance", { body: { seconds: 10 } });
    expect((await local.api("GET", `/v1/payouts/${failedByHand.id}`)).body.status).toBe("failed");
    // processing → succeeded still applies and happens at +5 s.
    expect((await local.api("GET", `/v1/payouts/${processingByHand.id}`)).body.status).toBe("succeeded");
    const types = (await eventsSince(local, undefined)).filter((e) => e.data.id === failedByHand.id).map((e) => e.type);
    expect(types).toEqual(["payout.created", "payout.failed"]);
  });

  it("moves nothing by itself with --payouts manual", async () => {
    const local = await usePaysimApp({ payouts: "manual" });
    const created = (await local.api("POST", "/v1/payouts", { body: CARD, idempotencyKey: freshKey() })).body;
    await local.api("POST", "/v1/sandbox/clock/advance", { body: { seconds: 86_400 } });
    expect((await local.api("GET", `/v1/payouts/${created.id}`)).body.status).toBe("pending");
    const moved = await local.api("POST", `/v1/sandbox/payouts/${created.id}/transition`, { body: { to: "processing" } });
    expect(moved.body.status).toBe("processing");
  });

  it("shortens the real wait with --time-scale: virtual time runs that many times faster", async () => {
    // Real time moves only when the test moves it: from one armed timer to the next.
    const timers = manualTimers(Date.parse("2026-05-01T12:00:00.000Z"));
    const local = await usePaysimApp({ timeScale: 3600, timers, realNow: timers.now });
    const realStart = timers.now();
    const virtualStart = Date.parse((await local.api("GET", "/v1/sandbox/clock")).body.now);
    const created = (await local.api("POST", "/v1/payouts", { body: CARD, idempotencyKey: freshKey() })).body;
    // The automatic moves fall due 2 s and 5 s of clock after the creation: each on a timer of its own.
    for (const move of ["processing", "succeeded"]) {
      await timers.untilPending(1); // the timer of the move to `move` is armed
      timers.next();
      await local.scheduler.idle();
      expect((await local.api("GET", `/v1/payouts/${created.id}`)).body.status).toBe(move);
    }
    const clock = (await local.api("GET", "/v1/sandbox/clock")).body;
    const realElapsed = timers.now() - realStart;
    expect(clock.time_scale).toBe(3600);
    expect(clock.offset_seconds).toBe(0); // nobody advanced it: the scale did the work
    // 5 s of clock in 2 real milliseconds (1 ms to the first move, 1 ms more to the second, rounded up).
    expect(realElapsed).toBe(2);
    expect(Date.parse(clock.now) - virtualStart).toBe(realElapsed * 3600);
    const types = (await eventsSince(local, undefined)).filter((e) => e.data.id === created.id).map((e) => e.type);
    expect(types).toEqual(["payout.created", "payout.processing", "payout.succeeded"]);
  });
});

describe("POST /v1/sandbox/payouts/:id/transition", () => {
  async function manualPayout(path: string[]) {
    const payout = await createPayout();
    for (const to of path) expect((await transition(payout.id, { to })).status).toBe(200);
    return payout;
  }

  it.each([
    [[], "processing"],
    [[], "failed"],
    [[], "returned"],
    [["processing"], "succeeded"],
    [["processing", "succeeded"], "reversed"],
  ])("after %o makes the drawn move to %s and emits its event", async (path, to) => {
    const payout = await manualPayout(path);
    const before = await newestEventId(paysim, ACME);
    const response = await transition(payout.id, { to });
    expect(response.status).toBe(200);
    expect(response.body.status).toBe(to);
    if (to === "reversed") expect(response.body.amount_reversed).toBe(5000);
    const events = await eventsSince(paysim, before, ACME);
    expect(events.map((e) => [e.type, e.data.status])).toEqual([[`payout.${to}`, to]]);
  });

  it("partially reverses with an amount, which sets amount_reversed; the status is final", async () => {
    const payout = await manualPayout(["processing", "succeeded"]);
    const response = await transition(payout.id, { to: "partially_reversed", amount: 1200 });
    expect(response.body).toMatchObject({ status: "partially_reversed", amount_reversed: 1200 });
    expectApiError(await transition(payout.id, { to: "reversed" }), 400, "invalid_request");
  });

  it.each([
    [["processing", "succeeded"], { to: "partially_reversed" }, "amount"],
    [["processing", "succeeded"], { to: "partially_reversed", amount: 0 }, "amount"],
    [["processing", "succeeded"], { to: "partially_reversed", amount: 5000 }, "amount"],
    [["processing", "succeeded"], { to: "reversed", amount: 100 }, "amount"],
    [[], { to: "processing", amount: 100 }, "amount"],
    [[], { to: "done" }, "to"],
    [[], {}, "to"],
    [[], { to: "processing", extra: 1 }, "extra"],
  ])("after %o refuses %o naming %s, changing nothing", async (path, body, param) => {
    const payout = await manualPayout(path);
    const before = await get(payout.id);
    expectApiError(await transition(payout.id, body), 400, "invalid_request", param);
    expect(await get(payout.id)).toEqual({ ...before, request_id: expect.any(String) });
  });

  it.each([
    [[], "succeeded"],
    [[], "reversed"],
    [["processing"], "failed"],
    [["processing"], "returned"],
    [["failed"], "processing"],
    [["returned"], "succeeded"],
    [["processing", "succeeded"], "processing"],
  ])("after %o refuses the undrawn move to %s and emits nothing", async (path, to) => {
    const payout = await manualPayout(path);
    const before = await newestEventId(paysim, ACME);
    expectApiError(await transition(payout.id, { to }), 400, "invalid_request");
    expect(await newestEventId(paysim, ACME)).toBe(before);
  });

  it("answers 404 for an unknown payout", async () => {
    expectApiError(await transition("po_UnknownUnknownUnknownXY", { to: "processing" }), 404, "not_found");
  });
});

describe("isolation of payouts between companies", () => {
  it("hides one company's payout from another on read, list and transition", async () => {
    const payout = await createPayout(CARD, ACME);
    const unknown = await paysim.api("GET", "/v1/payouts/po_UnknownUnknownUnknownXY", { key: GLOBEX });
    const foreign = await paysim.api("GET", `/v1/payouts/${payout.id}`, { key: GLOBEX });
    expectApiError(foreign, 404, "not_found");
    expect(foreign.body.error.message.replace(payout.id, "X")).toBe(unknown.body.error.message.replace("po_UnknownUnknownUnknownXY", "X"));
    expectApiError(await transition(payout.id, { to: "processing" }, GLOBEX), 404, "not_found");
    const list = await paysim.api("GET", "/v1/payouts?limit=100", { key: GLOBEX });
    expect(list.body.data.map((p: any) => p.id)).not.toContain(payout.id);
    expectApiError(await paysim.api("GET", `/v1/payouts?starting_after=${payout.id}`, { key: GLOBEX }), 400, "invalid_request", "starting_after");
    const events = await paysim.api("GET", "/v1/events?limit=100", { key: GLOBEX });
    expect(events.body.data.map((e: any) => e.data.id)).not.toContain(payout.id);
    expect((await get(payout.id)).status).toBe("pending");
  });
});

describe("restart with payout moves pending", () => {
  it("runs moves that fell due while paysim was down at once, and keeps the others for their time", async () => {
    let real = Date.parse("2030-01-01T00:00:00.000Z");
    const first = await usePaysimApp({ db: useTempPath(), realNow: () => real });
    const succeeding = (await first.api("POST", "/v1/payouts", { body: CARD, idempotencyKey: freshKey() })).body;
    const failing = (await first.api("POST", "/v1/payouts", { body: { ...CARD, destination_token: "tok_card_fail" }, idempotencyKey: freshKey() })).body;
    await first.close();

    real += 3000; // down for 3 s: processing (+2 s) and failed (+2 s) are overdue, succeeded (+5 s) is not
    const second = await usePaysimApp({ db: first.dbPath, realNow: () => real });
    expect((await second.api("GET", `/v1/payouts/${succeeding.id}`, { key: first.secretKey })).body.status).toBe("processing");
    expect((await second.api("GET", `/v1/payouts/${failing.id}`, { key: first.secretKey })).body.status).toBe("failed");
    await second.api("POST", "/v1/sandbox/clock/advance", { body: { seconds: 2 }, key: first.secretKey });
    expect((await second.api("GET", `/v1/payouts/${succeeding.id}`, { key: first.secretKey })).body.status).toBe("succeeded");
  });
});

import { describe, expect, it } from "vitest";
import { ApiError } from "../../src/domain/errors.js";
import { sha256Hex } from "../../src/shared/sha256.js";
import { HTTP_STATUS } from "../../src/server/errors.js";
import { createIdempotentRunner, IDEMPOTENCY_WINDOW_MS, type ChangeResult, type IdempotentRequest } from "../../src/services/idempotency.js";
import type { Work } from "../../src/services/unit-of-work.js";
import { servicesOnAFile } from "./support.js";

const KEY = "order-1042-create";

/** The runner over real services, and a change that records an event and answers `status` (201 unless told). */
function runner() {
  const s = servicesOnAFile();
  const execute = createIdempotentRunner(s.store, s.clock, s.run);
  let requests = 0;
  let changes = 0;
  const request = (overrides: Partial<IdempotentRequest> = {}): IdempotentRequest => ({
    companyId: s.companyId,
    requestId: `req_commands_test_${String(++requests).padStart(4, "0")}`,
    method: "POST",
    path: "/v1/payment_intents",
    idempotencyKey: KEY,
    body: { amount: 1000, currency: "EUR" },
    ...overrides,
  });
  const change =
    (status = 201, extra: Partial<ChangeResult> = {}) =>
    (work: Work): ChangeResult => {
      changes += 1;
      const event = work.recordEvent(s.event());
      return { status, resource: { id: `pi_${changes}`, object: "payment_intent", event: event.id }, ...extra };
    };
  return { ...s, execute, request, change, changes: () => changes };
}

describe("a state-changing call with an Idempotency-Key", () => {
  it("runs the change once and answers its resource with the request's id", async () => {
    const r = runner();
    const request = r.request();
    const response = await r.execute(request, r.change());
    expect(response).toEqual({ status: 201, text: expect.any(String), replayed: false });
    expect(JSON.parse(response.text)).toEqual({ id: "pi_1", object: "payment_intent", event: expect.stringMatching(/^evt_/), request_id: request.requestId });
    expect(r.changes()).toBe(1);
    expect(r.announced).toHaveLength(1);
  });

  it.each([
    ["the same body", { amount: 1000, currency: "EUR" }],
    ["the same body with its members in another order", { currency: "EUR", amount: 1000 }],
  ])("replays the stored status and body for %s: no change, no new event, nothing announced", async (_name, body) => {
    const r = runner();
    const first = await r.execute(r.request(), r.change());
    const eventsBefore = r.count("events");
    const again = await r.execute(r.request({ body }), r.change());
    expect(again).toEqual({ status: first.status, text: first.text, replayed: true });
    expect(r.changes()).toBe(1);
    expect(r.count("events")).toBe(eventsBefore);
    expect(r.announced).toHaveLength(1);
  });

  it.each([
    ["another amount", { amount: 2000, currency: "EUR" }],
    ["an extra member", { amount: 1000, currency: "EUR", description: "x" }],
    ["no body", undefined],
  ])("refuses the key with %s: a 409 idempotency_conflict naming the header, nothing written", async (_name, body) => {
    const r = runner();
    await r.execute(r.request(), r.change());
    let refused: unknown;
    try {
      await r.execute(r.request({ body }), r.change());
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ code: "idempotency_conflict", param: "Idempotency-Key" });
    expect(HTTP_STATUS[(refused as ApiError).code]).toBe(409);
    expect(r.changes()).toBe(1);
    expect(r.count("events")).toBe(1);
    expect(r.count("idempotency_keys")).toBe(1);
  });

  it.each<[string, Partial<IdempotentRequest>]>([
    ["another path", { path: "/v1/payouts" }],
    ["another method", { method: "PUT" }],
    ["another company", { companyId: "co_other" }],
  ])("treats the same key on %s as a new operation", async (_name, overrides) => {
    const r = runner();
    if (overrides.companyId) r.db.prepare("INSERT INTO companies (id, name, currency, created_at) VALUES (?, 'Other', 'EUR', 'x')").run(overrides.companyId);
    await r.execute(r.request(), r.change());
    const other = await r.execute(r.request({ ...overrides, body: { amount: 5 } }), r.change());
    expect(other.replayed).toBe(false);
    expect(r.changes()).toBe(2);
    expect(r.count("idempotency_keys")).toBe(2);
  });

  it.each([
    [200, true],
    [201, true],
    [299, true],
    [300, false],
    [402, false],
    [500, false],
  ])("with an answer of status %i: stored for replay: %s", async (status, stored) => {
    const r = runner();
    const first = await r.execute(r.request(), r.change(status));
    expect(first.status).toBe(status);
    expect(r.count("idempotency_keys")).toBe(stored ? 1 : 0);
    const again = await r.execute(r.request(), r.change(status));
    expect(again.replayed).toBe(stored);
    expect(r.changes()).toBe(stored ? 1 : 2);
  });

  it("stores nothing for a change that throws, so the same key runs the change again", async () => {
    const r = runner();
    const refuse = () => {
      throw new ApiError("invalid_request", "amount must be a positive integer.", "amount");
    };
    await expect((async () => r.execute(r.request(), refuse))()).rejects.toMatchObject({ code: "invalid_request" });
    expect(r.count("idempotency_keys")).toBe(0);
    const retried = await r.execute(r.request(), r.change());
    expect(retried).toMatchObject({ status: 201, replayed: false });
  });

  it("keeps the key only as its hash", async () => {
    const r = runner();
    await r.execute(r.request(), r.change());
    expect(r.db.prepare("SELECT key FROM idempotency_keys").pluck().all()).toEqual([sha256Hex(KEY)]);
  });

  it("answers a replay only once the group holding the stored answer is durable", async () => {
    const r = runner();
    const durableAtAnswer: boolean[] = [];
    const first = r.execute(r.request(), r.change()).then((response) => (durableAtAnswer.push(!r.db.inTransaction), response));
    // Same turn: the first answer is written into the open group, not yet committed.
    expect(r.db.inTransaction).toBe(true);
    const replay = r.execute(r.request(), r.change()).then((response) => (durableAtAnswer.push(!r.db.inTransaction), response));
    const [original, replayed] = await Promise.all([first, replay]);
    expect(replayed).toEqual({ ...original, replayed: true });
    expect(durableAtAnswer).toEqual([true, true]);
    expect(r.changes()).toBe(1);
  });

  it("answers an event with its own request_id when the change says so", async () => {
    const r = runner();
    const resource = { id: "evt_1", object: "event", request_id: "req_that_caused_it" };
    const response = await r.execute(r.request(), () => ({ status: 200, resource, keepsRequestId: true }));
    expect(JSON.parse(response.text)).toEqual(resource);
  });
});

describe("the 24-hour window, on the paysim clock", () => {
  const DAY_SECONDS = IDEMPOTENCY_WINDOW_MS / 1000;

  it.each([
    ["a second before it ends", DAY_SECONDS - 1, "still taken", true],
    ["when it ends", DAY_SECONDS, "free again", false],
    ["days later", 3 * DAY_SECONDS, "free again", false],
  ])("%s (%i s later), the key is %s", async (_when, seconds, _state, replays) => {
    const r = runner();
    await r.execute(r.request(), r.change());
    r.clock.advance(seconds);
    // Another body: within the window it conflicts; once the window has passed the key is free for it.
    const later = (async () => r.execute(r.request({ body: { amount: 7 } }), r.change()))();
    if (replays) {
      await expect(later).rejects.toMatchObject({ code: "idempotency_conflict" });
      const same = await r.execute(r.request(), r.change());
      expect(same.replayed).toBe(true);
      expect(r.changes()).toBe(1);
    } else {
      expect(await later).toMatchObject({ status: 201, replayed: false });
      expect(r.changes()).toBe(2);
      // The key now answers the new operation.
      const again = await r.execute(r.request({ body: { amount: 7 } }), r.change());
      expect(again).toMatchObject({ replayed: true, text: (await later).text });
      expect(r.count("idempotency_keys")).toBe(1);
    }
  });
});

describe("a state-changing call without an Idempotency-Key", () => {
  it("runs the change every time and stores nothing", async () => {
    const r = runner();
    for (let i = 0; i < 3; i++) expect((await r.execute(r.request({ idempotencyKey: undefined }), r.change())).replayed).toBe(false);
    expect(r.changes()).toBe(3);
    expect(r.count("idempotency_keys")).toBe(0);
  });
});

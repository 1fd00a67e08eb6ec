import { describe, expect, it } from "vitest";
import { startPaysim } from "../src/index.js";
import { useReceiver, useStartedPaysim } from "./helpers/disposables.js";
import { callApi, freshKey } from "./helpers/paysim.js";

const KEY_A = "sk_test_inproc_reset_a_01";
const KEY_B = "sk_test_inproc_reset_b_01";

const start = (options: Parameters<typeof startPaysim>[0]) => useStartedPaysim(options);

describe("reset() on the startPaysim() object", () => {
  it("deletes every company's activity and keeps keys, endpoints and the clock", async () => {
    const receiver = await useReceiver(200);
    const paysim = await start({
      config: {
        companies: [
          { name: "A", currency: "EUR", secret_key: KEY_A, webhook_endpoints: [{ url: receiver.url, enabled_events: ["*"] }] },
          { name: "B", currency: "EUR", secret_key: KEY_B, webhook_endpoints: [] },
        ],
      },
      payouts: "manual",
    });
    const call = (key: string, method: string, path: string, body?: object) =>
      callApi(paysim.url, key, method, path, { body, idempotencyKey: method === "POST" ? freshKey() : undefined });
    const list = async (key: string, path: string) => (await call(key, "GET", `${path}?limit=100`)).body.data as unknown[];

    for (const key of [KEY_A, KEY_B]) expect((await call(key, "POST", "/v1/payment_intents", { amount: 1000 })).status).toBe(201);
    const endpointsBefore = await list(KEY_A, "/v1/webhook_endpoints");
    await receiver.waitForRequests(1);
    const now = (await paysim.clock.advance("1h")).getTime();

    await paysim.reset();

    for (const key of [KEY_A, KEY_B]) {
      expect(await list(key, "/v1/payment_intents")).toEqual([]);
      expect(await list(key, "/v1/events")).toEqual([]);
    }
    expect(paysim.clock.now().getTime()).toBeGreaterThanOrEqual(now);
    expect(await list(KEY_A, "/v1/webhook_endpoints")).toEqual(endpointsBefore);
    // Afterwards it works as if freshly started: the kept endpoint gets the next event.
    const created = await call(KEY_A, "POST", "/v1/payment_intents", { amount: 2500 });
    expect(created.status).toBe(201);
    const [, second] = await receiver.waitForRequests(2);
    expect(JSON.parse(second!.body.toString()).data.id).toBe(created.body.id);
  });
});

describe("coverage() on the startPaysim() object", () => {
  it('keeps its counts through reset(); coverage.clear() clears them; { scope: "self" } leaves the instances out', async () => {
    const paysim = await start({});
    const create = (url: string, key: string) => callApi(url, key, "POST", "/v1/payment_intents", { body: { amount: 100 }, idempotencyKey: freshKey() });
    expect((await create(paysim.url, paysim.secretKey)).status).toBe(201);
    const instance = (await callApi(paysim.url, paysim.secretKey, "POST", "/v1/sandbox/instances", { body: {}, idempotencyKey: freshKey() })).body;
    expect((await create(instance.url, instance.secret_key)).status).toBe(201);

    await paysim.reset();
    const kept = await paysim.coverage();
    expect(kept.operations.createPaymentIntent).toEqual({ calls: 2, statuses: { "201": 2 } });
    expect(kept.instances).toBe(1);
    expect((await paysim.coverage({ scope: "self" })).operations.createPaymentIntent).toEqual({ calls: 1, statuses: { "201": 1 } });

    await paysim.coverage.clear();
    const cleared = await paysim.coverage();
    expect(cleared.operations.createPaymentIntent!.calls).toBe(0);
    expect(Date.parse(cleared.since)).toBeGreaterThanOrEqual(Date.parse(kept.since));
  });
});

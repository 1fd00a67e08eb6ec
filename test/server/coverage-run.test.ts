import { connect } from "node:net";
import { describe, expect, it } from "vitest";
import { usePaysim } from "../helpers/disposables.js";
import { clientFor, createIntent, freshKey, type TestPaysim } from "../helpers/paysim.js";
import { until } from "../helpers/unanswered.js";

const KEY_A = "sk_test_runcov_a_0001";
const KEY_B = "sk_test_runcov_b_0001";
const TWO_COMPANIES = {
  companies: [
    { name: "A", currency: "EUR", secret_key: KEY_A, webhook_endpoints: [] },
    { name: "B", currency: "EUR", secret_key: KEY_B, webhook_endpoints: [] },
  ],
};

async function coverage(paysim: Pick<TestPaysim, "api">, key?: string, query = "") {
  const response = await paysim.api("GET", `/v1/sandbox/coverage${query}`, { key });
  expect(response.status, response.text).toBe(200);
  return response.body;
}

async function startInstance(paysim: TestPaysim, key: string) {
  const response = await paysim.api("POST", "/v1/sandbox/instances", { key, body: {}, idempotencyKey: freshKey() });
  expect(response.status, response.text).toBe(201);
  return { id: response.body.id as string, client: clientFor(response.body.url, response.body.secret_key) };
}

describe("coverage of a run with instances", () => {
  it("counts what an instance does for the company that started it, live and after it stops; scope=self leaves the instances out", async () => {
    const paysim = await usePaysim({ config: TWO_COMPANIES });
    await createIntent(paysim, { amount: 100 }, KEY_A);
    const first = await startInstance(paysim, KEY_A);
    const second = await startInstance(paysim, KEY_A);
    await createIntent(first.client);
    await createIntent(second.client);
    expect((await second.client.api("GET", "/v1/payment_intents/pi_missing")).status).toBe(404);

    // Live: the parent's report holds its own call and the instances'.
    const live = await coverage(paysim, KEY_A);
    expect(live.instances).toBe(2);
    expect(live.operations.createPaymentIntent).toEqual({ calls: 3, statuses: { "201": 3 } });
    expect(live.operations.getPaymentIntent).toEqual({ calls: 1, statuses: { "404": 1 } });
    expect(live.events["payment_intent.created"]).toBe(3);
    expect(live.errors.not_found).toBe(1);
    // Each instance's own report holds only its own.
    expect((await coverage(first.client)).operations.createPaymentIntent.calls).toBe(1);
    expect((await coverage(first.client)).instances).toBe(0);

    // Stopped: its counts stay with the parent.
    expect((await paysim.api("DELETE", `/v1/sandbox/instances/${first.id}`, { key: KEY_A })).status).toBe(200);
    expect((await paysim.api("DELETE", `/v1/sandbox/instances/${second.id}`, { key: KEY_A })).status).toBe(200);
    const after = await coverage(paysim, KEY_A);
    expect(after.instances).toBe(2);
    expect(after.operations.createPaymentIntent).toEqual({ calls: 3, statuses: { "201": 3 } });
    expect(after.events["payment_intent.created"]).toBe(3);
    expect(after.uncovered.operations).not.toContain("getPaymentIntent");

    const self = await coverage(paysim, KEY_A, "?scope=self");
    expect(self.instances).toBe(0);
    expect(self.operations.createPaymentIntent).toEqual({ calls: 1, statuses: { "201": 1 } });
    expect(self.operations.getPaymentIntent.calls).toBe(0);
    expect((await coverage(paysim, KEY_A, "?scope=all")).operations.createPaymentIntent.calls).toBe(3);
    // Another company of the parent saw none of it.
    expect((await coverage(paysim, KEY_B)).operations.createPaymentIntent.calls).toBe(0);
    expect((await coverage(paysim, KEY_B)).instances).toBe(0);
    // In-process, the same: the default company is A.
    expect(paysim.coverage().operations.createPaymentIntent!.calls).toBe(3);
    expect(paysim.coverage(undefined, "self").operations.createPaymentIntent!.calls).toBe(1);
  });

  it("a clear on the parent starts its instances' counts anew too; a running instance stays rolled in, and a reset keeps it all", async () => {
    const paysim = await usePaysim({ config: TWO_COMPANIES });
    const stopped = await startInstance(paysim, KEY_A);
    await createIntent(stopped.client);
    expect((await paysim.api("DELETE", `/v1/sandbox/instances/${stopped.id}`, { key: KEY_A })).status).toBe(200);
    const running = await startInstance(paysim, KEY_A);
    await createIntent(running.client);
    expect((await coverage(paysim, KEY_A)).instances).toBe(2);

    expect((await paysim.api("DELETE", "/v1/sandbox/coverage", { key: KEY_A })).status).toBe(200);
    const cleared = await coverage(paysim, KEY_A);
    expect(cleared.operations.createPaymentIntent.calls).toBe(0);
    expect(cleared.instances).toBe(1);
    // The instance's own report is its own: the parent's clear leaves it.
    expect((await coverage(running.client)).operations.createPaymentIntent.calls).toBe(1);

    await createIntent(running.client);
    expect((await running.client.api("POST", "/v1/sandbox/reset", { body: {} })).status).toBe(200);
    expect((await paysim.api("POST", "/v1/sandbox/reset", { key: KEY_A, body: {} })).status).toBe(200);
    const afterResets = await coverage(paysim, KEY_A);
    expect(afterResets.operations.createPaymentIntent).toEqual({ calls: 1, statuses: { "201": 1 } });
    expect((await coverage(running.client)).operations.createPaymentIntent.calls).toBe(2);
    // A clear on the instance is its own: what it rolled up stays with the parent.
    expect((await running.client.api("DELETE", "/v1/sandbox/coverage")).status).toBe(200);
    expect((await coverage(running.client)).operations.createPaymentIntent.calls).toBe(0);
    expect((await coverage(paysim, KEY_A)).operations.createPaymentIntent.calls).toBe(1);
  });
});

describe("coverage of requests that got no answer", () => {
  it('counts a timeout when it hits the request, its status as "none", not when its held connection ends', async () => {
    const paysim = await usePaysim();
    await paysim.faults.add(paysim.companies[0]!.company.id, { fault: "timeout", latency_ms: 60_000, match: { method: "GET", path: "/v1/events" } });
    const client = new AbortController();
    const held = fetch(`${paysim.url}/v1/events`, { headers: { Authorization: `Bearer ${paysim.secretKey}` }, signal: client.signal }).catch(
      (error: Error) => error.name,
    );
    await until(() => paysim.coverage().faults.timeout === 1, "the timeout is counted while its connection is held");
    expect(paysim.coverage().operations.listEvents!).toEqual({ calls: 1, statuses: { none: 1 } });
    client.abort();
    expect(await held).toBe("AbortError");
    // Its end counts nothing more.
    await createIntent(paysim);
    expect(paysim.coverage().operations.listEvents!).toEqual({ calls: 1, statuses: { none: 1 } });
    expect(paysim.coverage().faults.timeout).toBe(1);
  });

  it('counts a latency when it hits, and a call whose client went away during it, or whose answer was lost, as "none", never "0"', async () => {
    const paysim = await usePaysim();
    const company = paysim.companies[0]!.company.id;
    await paysim.faults.add(company, { fault: "latency", latency_ms: 60_000, match: { method: "GET", path: "/v1/payouts" }, times: 1 });
    const socket = connect(paysim.port, "127.0.0.1");
    socket.write(`GET /v1/payouts HTTP/1.1\r\nHost: 127.0.0.1:${paysim.port}\r\nAuthorization: Bearer ${paysim.secretKey}\r\n\r\n`);
    await until(() => paysim.coverage().faults.latency === 1, "the latency is counted while the answer is held");
    expect(paysim.coverage().operations.listPayouts!.calls).toBe(0);
    socket.destroy();
    await until(() => paysim.coverage().operations.listPayouts!.calls === 1, "the call whose client left is counted");
    expect(paysim.coverage().operations.listPayouts!.statuses).toEqual({ none: 1 });

    await paysim.faults.add(company, { fault: "lost_response", match: { method: "POST", path: "/v1/payment_intents" }, times: 1 });
    await expect(createIntent(paysim)).rejects.toThrow();
    await until(() => paysim.coverage().operations.createPaymentIntent!.calls === 1, "the lost answer's call is counted");
    await createIntent(paysim);
    const report = paysim.coverage();
    expect(report.operations.createPaymentIntent!.statuses).toEqual({ "201": 1, none: 1 });
    expect(report.faults).toMatchObject({ latency: 1, lost_response: 1 });
    for (const { statuses } of Object.values(report.operations)) expect(statuses).not.toHaveProperty("0");
  });
});

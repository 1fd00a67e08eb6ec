import { describe, expect, expectTypeOf, it } from "vitest";
import type * as z from "zod";
import type { faultRuleSchema } from "../src/domain/faults.js";
import { type PaysimFaultRuleInput, type RunningPaysim } from "../src/index.js";
import { useStartedPaysim } from "./helpers/disposables.js";
import { callApi, freshKey } from "./helpers/paysim.js";
import { buildRequest } from "./helpers/raw-socket.js";
import { exchange, until } from "./helpers/unanswered.js";

const start = () => useStartedPaysim();

const rules = async (paysim: RunningPaysim) => (await callApi(paysim.url, paysim.secretKey, "GET", "/v1/sandbox/faults")).body.data as any[];
const createIntent = (paysim: RunningPaysim, key = freshKey()) =>
  callApi(paysim.url, paysim.secretKey, "POST", "/v1/payment_intents", { body: { amount: 1000 }, idempotencyKey: key });

describe("faults on the startPaysim() object", () => {
  it("takes exactly the rules the API's schema takes (checked by the type checker)", () => {
    expectTypeOf<PaysimFaultRuleInput>().toExtend<z.input<typeof faultRuleSchema>>();
    expectTypeOf<z.input<typeof faultRuleSchema>>().toExtend<PaysimFaultRuleInput>();
  });

  it("add() makes a rule for the default company and resolves to it; clear() removes them all", async () => {
    const paysim = await start();
    const rule = await paysim.faults.add({ fault: "server_error", match: { method: "POST", path: "/v1/payment_intents" }, times: 2 });
    expect(rule).toMatchObject({ object: "fault", fault: "server_error", match: { method: "POST", path: "/v1/payment_intents" }, times: 2, remaining: 2 });
    expect((await rules(paysim)).map((listed) => listed.id)).toEqual([rule.id]);
    expect((await createIntent(paysim)).status).toBe(500);
    await paysim.faults.clear();
    expect(await rules(paysim)).toEqual([]);
    expect((await createIntent(paysim)).status).toBe(201);
  });

  it("add() rejects a rule the API would refuse, naming the field, and stores nothing", async () => {
    const paysim = await start();
    await expect(paysim.faults.add({ fault: "latency" })).rejects.toThrow(/latency_ms is required.*\(field: latency_ms\)/);
    await expect(paysim.faults.add({ fault: "boom" } as never)).rejects.toThrow(/\(field: fault\)/);
    expect(await rules(paysim)).toEqual([]);
  });

  it("reset() removes the rules with everything else", async () => {
    const paysim = await start();
    await paysim.faults.add({ fault: "server_error", times: 5 });
    await paysim.reset();
    expect(await rules(paysim)).toEqual([]);
    expect((await createIntent(paysim)).status).toBe(201);
  });

  it("lost_response: the payment is made though fetch fails, and the retry with its key gets it", async () => {
    const paysim = await start();
    await paysim.faults.add({ fault: "lost_response", match: { method: "POST", path: "/v1/payment_intents" } });
    const key = freshKey();
    await expect(createIntent(paysim, key)).rejects.toThrow(/fetch failed/);
    const retry = await createIntent(paysim, key);
    expect(retry.status).toBe(201);
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    expect(await paysim.events.list({ type: "payment_intent.created" })).toHaveLength(1);
  });

  it("close() does not wait for a request a timeout holds", async () => {
    const paysim = await start();
    await paysim.faults.add({ fault: "timeout", latency_ms: 60_000 });
    const port = Number(new URL(paysim.url).port);
    const held = exchange(port, buildRequest("GET", "/v1/payment_intents", { Authorization: `Bearer ${paysim.secretKey}` }));
    await until(async () => (await rules(paysim)).length === 0, "the request reached paysim");
    await paysim.close();
    expect((await held).received.toString("latin1")).toBe("");
  });
});

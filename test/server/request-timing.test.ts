// A request is timed on the instance's timers (when it arrived, how long it took): with timers
// the test moves, the log shows the time they were moved to, and nothing of the machine's.
import { describe, expect, it } from "vitest";
import type { RequestLogged } from "../../src/bus.js";
import { usePaysim } from "../helpers/disposables.js";
import { manualTimers } from "../helpers/manual-timers.js";

describe("request.logged", () => {
  it("says when a request arrived and how long it took on the instance's timers", async () => {
    const timers = manualTimers(5_000);
    const paysim = await usePaysim({ timers });
    const rule = await paysim.api("POST", "/v1/sandbox/faults", {
      body: { fault: "latency", latency_ms: 300, match: { method: "GET", path: "/v1/payouts" }, times: 1 },
    });
    expect(rule.status, rule.text).toBe(201);
    const logged: RequestLogged[] = [];
    paysim.bus.on("request.logged", (request) => logged.push(request));

    const held = paysim.api("GET", "/v1/payouts");
    await timers.untilPending(1); // the answer is held
    timers.advance(300);
    expect((await held).status).toBe(200);
    expect((await paysim.api("GET", "/v1/payment_intents")).status).toBe(200);

    expect(logged.map(({ path, arrivedAtMs, durationMs }) => ({ path, arrivedAtMs, durationMs }))).toEqual([
      { path: "/v1/payouts", arrivedAtMs: 5_000, durationMs: 300 },
      { path: "/v1/payment_intents", arrivedAtMs: 5_300, durationMs: 0 },
    ]);
  });
});

import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { StartedPaysim } from "../helpers/cli.js";
import { usePaysimCli, useTempDir } from "../helpers/disposables.js";
import { callApi, freshKey } from "../helpers/paysim.js";

// The real binary (dist/): `npm test` builds it first.

const KEY = "sk_test_payout_restart_01";
function start(db: string): Promise<StartedPaysim> {
  return usePaysimCli(["--no-ui", "--db", db, "--secret-key", KEY]);
}

describe("payout moves across a new process on the same database", () => {
  it("keeps the automatic moves of a payout through a SIGKILL and makes them when the clock reaches them", async () => {
    const db = join(useTempDir("paysim-payout-restart-"), "paysim.db");

    const first = await start(db);
    const created = await callApi(first.url, KEY, "POST", "/v1/payouts", {
      body: { amount: 2500, currency: "EUR", destination_type: "card", destination_token: "tok_card_visa" },
      idempotencyKey: freshKey(),
    });
    expect(created.status, created.text).toBe(201);
    await first.cli.stop("SIGKILL");

    const second = await start(db);
    const before = await callApi(second.url, KEY, "GET", `/v1/payouts/${created.body.id}`);
    // Depending on how long the restart took, the +2 s move may already be overdue (made at start); +5 s is not yet.
    expect(["pending", "processing"]).toContain(before.body.status);

    const advanced = await callApi(second.url, KEY, "POST", "/v1/sandbox/clock/advance", { body: { seconds: 10 } });
    expect(advanced.status).toBe(200);
    const after = await callApi(second.url, KEY, "GET", `/v1/payouts/${created.body.id}`);
    expect(after.body.status).toBe("succeeded");
    const events = await callApi(second.url, KEY, "GET", "/v1/events?limit=10");
    expect(events.body.data.filter((e: any) => e.data.id === created.body.id).map((e: any) => e.type)).toEqual([
      "payout.succeeded",
      "payout.processing",
      "payout.created",
    ]);
  });
});

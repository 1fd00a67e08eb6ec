import { describe, expect, it } from "vitest";
import { usePaysim } from "../helpers/disposables.js";
import { createIntent, freshKey } from "../helpers/paysim.js";
import { runCli } from "../helpers/cli.js";
import { RESET_COUNTED } from "../../src/domain/resources.js";
import { resetCounts, resetCountsTable, resetKindsInWords } from "../helpers/registry.js";

const KEY_A = "sk_test_cli_reset_a_0001";
const KEY_B = "sk_test_cli_reset_b_0001";

describe("paysim reset", () => {
  it("names in its help every kind the reset counts, as the resource registry lists them", async () => {
    const { code, stdout } = await runCli(["reset", "--help"]);
    expect(code).toBe(0);
    const help = stdout.replace(/\s+/g, " ");
    for (const { noun } of RESET_COUNTED) expect(help).toContain(`${noun}s`);
    expect(help).toContain(`Delete the company's ${resetKindsInWords()} (keys, endpoints and the clock stay)`);
  });

  it("resets the key's company without asking, prints the counts, and leaves the other company alone", async () => {
    const paysim = await usePaysim({
      config: {
        companies: [
          { name: "A", currency: "EUR", secret_key: KEY_A, webhook_endpoints: [] },
          { name: "B", currency: "EUR", secret_key: KEY_B, webhook_endpoints: [] },
        ],
      },
      payouts: "manual",
    });
    await createIntent(paysim, { amount: 1000 }, KEY_A);
    await createIntent(paysim, { amount: 2000 }, KEY_A);
    const payout = await paysim.api("POST", "/v1/payouts", {
      body: { amount: 500, currency: "EUR", destination_type: "card", destination_token: "tok_card_visa" },
      idempotencyKey: freshKey(),
      key: KEY_A,
    });
    expect(payout.status).toBe(201);
    await createIntent(paysim, { amount: 3000 }, KEY_B);

    const { code, stdout, stderr } = await runCli(["reset", "--url", paysim.url, "--key", KEY_A]);
    expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
    expect(stdout).toBe(resetCountsTable({ payment_intents: 2, payouts: 1, events: 3 }));

    expect((await paysim.api("GET", "/v1/payment_intents", { key: KEY_A })).body.data).toEqual([]);
    expect((await paysim.api("GET", "/v1/payment_intents", { key: KEY_B })).body.data).toHaveLength(1);

    const again = await runCli(["reset", "--json", "--url", paysim.url, "--key", KEY_A]);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ object: "reset", deleted: resetCounts() });
  });

  it("exits 1 with the server's message for a key it does not know", async () => {
    const paysim = await usePaysim();
    const { code, stdout, stderr } = await runCli(["reset", "--url", paysim.url, "--key", "sk_test_nobody_knows_this_1"]);
    expect(code).toBe(1);
    expect(stdout).toBe("");
    expect(stderr).toMatch(/401|key/i);
  });

  it("refuses an argument it does not take, with the usage", async () => {
    const { code, stderr } = await runCli(["reset", "everything"]);
    expect(code).toBe(1);
    expect(stderr).toBe("paysim reset: too many arguments: it takes 0 and got 1 (quote a value that holds spaces).\nsee paysim reset --help\n");
  });
});

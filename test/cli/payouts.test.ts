import { beforeAll, describe, expect, it } from "vitest";
import { suiteScope, usePaysim } from "../helpers/disposables.js";
import { freshKey, type TestPaysim } from "../helpers/paysim.js";
import { runCli } from "../helpers/cli.js";

describe("paysim payouts transition", () => {
  const thisSuite = suiteScope();
  let paysim: TestPaysim;
  beforeAll(async () => {
    paysim = await usePaysim({ payouts: "manual" }, thisSuite);
  });

  const cli = (...args: string[]) => runCli([...args, "--url", paysim.url, "--key", paysim.secretKey]);
  const createPayout = async (token = "tok_card_visa") => {
    const response = await paysim.api("POST", "/v1/payouts", {
      body: { amount: 1000, currency: "EUR", destination_type: "card", destination_token: token },
      idempotencyKey: freshKey(),
    });
    expect(response.status).toBe(201);
    return response.body;
  };

  it("drives a payout along the drawn moves and prints it", async () => {
    const payout = await createPayout();
    const processing = await cli("payouts", "transition", payout.id, "processing");
    expect(processing.code).toBe(0);
    expect(processing.stdout).toContain(`id               ${payout.id}\n`);
    expect(processing.stdout).toContain("status           processing\n");
    expect(processing.stdout).toContain("amount           1000 EUR\n");
    expect(processing.stdout).toContain("destination      card **** 4242\n");

    expect((await cli("payouts", "transition", payout.id, "succeeded")).code).toBe(0);
    const partial = await cli("payouts", "transition", payout.id, "partially_reversed", "--amount", "250", "--json");
    expect({ code: partial.code, stderr: partial.stderr }).toEqual({ code: 0, stderr: "" });
    expect(JSON.parse(partial.stdout)).toMatchObject({ id: payout.id, status: "partially_reversed", amount_reversed: 250 });
    expect((await paysim.api("GET", `/v1/payouts/${payout.id}`)).body).toMatchObject({ status: "partially_reversed", amount_reversed: 250 });
  });

  it("refuses a move that is not drawn with the server's code and message, changing nothing", async () => {
    const payout = await createPayout();
    const { code, stderr } = await cli("payouts", "transition", payout.id, "succeeded");
    expect(code).toBe(1);
    expect(stderr).toMatch(/^paysim: invalid_request: .*"pending".*"succeeded"/);
    expect((await paysim.api("GET", `/v1/payouts/${payout.id}`)).body.status).toBe("pending");
  });

  it("passes the server's refusal of a partial reversal without --amount", async () => {
    const payout = await createPayout();
    await cli("payouts", "transition", payout.id, "processing");
    await cli("payouts", "transition", payout.id, "succeeded");
    const { code, stderr } = await cli("payouts", "transition", payout.id, "partially_reversed");
    expect(code).toBe(1);
    expect(stderr).toMatch(/^paysim: invalid_request: .+ \(param: amount\)\n$/);
  });

  it.each(["0", "-5", "2.5", "ten"])("refuses --amount %s before calling the server", async (amount) => {
    const payout = await createPayout();
    const { code, stderr } = await cli("payouts", "transition", payout.id, "processing", "--amount", amount);
    expect(code).toBe(1);
    expect(stderr).toBe(
      `paysim payouts transition: --amount "${amount}" is invalid: it must be a positive whole number of minor units, e.g. 250.\nsee paysim payouts transition --help\n`,
    );
    expect((await paysim.api("GET", `/v1/payouts/${payout.id}`)).body.status).toBe("pending");
  });

  it("refuses an unknown payout with not_found", async () => {
    const { code, stderr } = await cli("payouts", "transition", "po_UnknownUnknownUnknown000", "processing");
    expect(code).toBe(1);
    expect(stderr).toMatch(/^paysim: not_found: /);
  });

  it("refuses a missing status with the usage", async () => {
    const { code, stderr } = await cli("payouts", "transition", "po_UnknownUnknownUnknown000");
    expect(code).toBe(1);
    expect(stderr).toBe("paysim payouts transition: the <status> argument is missing.\nsee paysim payouts transition --help\n");
  });
});

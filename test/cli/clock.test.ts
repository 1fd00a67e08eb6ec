import { beforeAll, describe, expect, it } from "vitest";
import { suiteScope, usePaysim } from "../helpers/disposables.js";
import { freshKey, type TestPaysim } from "../helpers/paysim.js";
import { runCli } from "../helpers/cli.js";

describe("paysim clock", () => {
  const thisSuite = suiteScope();
  let paysim: TestPaysim;
  beforeAll(async () => {
    paysim = await usePaysim({}, thisSuite);
  });

  const cli = (...args: string[]) => runCli([...args, "--url", paysim.url, "--key", paysim.secretKey]);

  it("shows the virtual time, offset and time scale", async () => {
    const { code, stdout } = await cli("clock", "show");
    expect(code).toBe(0);
    expect(stdout).toMatch(/^now {9}\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z\noffset {6}0s \(0 s\)\ntime scale {2}1\n$/);
  });

  it("advances by a duration and answers after due payout moves are done", async () => {
    const payout = await paysim.api("POST", "/v1/payouts", {
      body: { amount: 500, currency: "EUR", destination_type: "card", destination_token: "tok_card_visa" },
      idempotencyKey: freshKey(),
    });
    const before = JSON.parse((await cli("clock", "show", "--json")).stdout);
    const { code, stdout } = await cli("clock", "advance", "6h", "--json");
    expect(code).toBe(0);
    const after = JSON.parse(stdout);
    expect(after.object).toBe("clock");
    expect(after.offset_seconds - before.offset_seconds).toBe(21_600);
    expect(Date.parse(after.now) - Date.parse(before.now)).toBeGreaterThanOrEqual(21_600_000);
    // +5 s after creation the payout has succeeded; advancing 6 h got it there before answering.
    expect((await paysim.api("GET", `/v1/payouts/${payout.body.id}`)).body.status).toBe("succeeded");

    const human = await cli("clock", "advance", "90s");
    expect(human.stdout).toContain("offset      6h 1m 30s (21690 s)\n");
  });

  it.each([
    ["6", /"6" has no unit/],
    ["1.5s", /whole number of seconds/],
    ["0s", /at least 1 second/],
    ["400d", /at most 31536000 seconds/],
    ["soon", /is not a duration/],
  ])("refuses the duration %s with exit 1 and leaves the clock alone", async (duration, message) => {
    const before = JSON.parse((await cli("clock", "show", "--json")).stdout);
    const { code, stdout, stderr } = await cli("clock", "advance", duration);
    expect(code).toBe(1);
    expect(stdout).toBe("");
    expect(stderr).toMatch(message);
    const after = JSON.parse((await cli("clock", "show", "--json")).stdout);
    expect(after.offset_seconds).toBe(before.offset_seconds);
  });

  it("refuses a missing duration with the usage", async () => {
    const { code, stderr } = await cli("clock", "advance");
    expect(code).toBe(1);
    expect(stderr).toBe("paysim clock advance: the <duration> argument is missing.\nsee paysim clock advance --help\n");
  });
});

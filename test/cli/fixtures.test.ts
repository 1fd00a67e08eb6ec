import { beforeAll, describe, expect, it } from "vitest";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { suiteScope, usePaysim, useTempDir } from "../helpers/disposables.js";
import type { TestPaysim } from "../helpers/paysim.js";
import { runCli } from "../helpers/cli.js";

describe("paysim fixtures run", () => {
  const thisSuite = suiteScope();
  let paysim: TestPaysim;
  let dir: string;
  beforeAll(async () => {
    paysim = await usePaysim({}, thisSuite);
    dir = useTempDir("paysim-fixtures-", thisSuite);
  });

  /** Writes `content` (an object as JSON, a string as is) to a file and runs it. */
  const run = (name: string, content: unknown, ...extra: string[]) => {
    const file = join(dir, name);
    writeFileSync(file, typeof content === "string" ? content : JSON.stringify(content));
    return runCli(["fixtures", "run", file, "--url", paysim.url, "--key", paysim.secretKey, ...extra]);
  };

  const checkout = {
    steps: [
      { name: "pi", method: "POST", path: "/v1/payment_intents", body: { amount: 2500, capture_method: "manual" } },
      { name: "auth", method: "POST", path: "/v1/payment_intents/${pi.id}/authorize", body: { payment_method: "pm_card_visa" } },
      { name: "capture", method: "POST", path: "/v1/payment_intents/${auth.id}/capture" },
    ],
  };

  it("runs a user's fixture file step by step and prints what each made", async () => {
    const { code, stdout, stderr } = await run("checkout.json", checkout);
    expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
    const lines = stdout.trimEnd().split("\n");
    expect(lines).toHaveLength(4);
    const id = /pi_\w{24}/.exec(lines[1]!)![0];
    expect(lines[1]).toMatch(/^pi\s+POST \/v1\/payment_intents\s+201\s+pi_\w{24}\s+created$/);
    expect(lines[2]).toMatch(/^auth\s+.*\s+200\s+pi_\w{24}\s+authorized$/);
    expect(lines[3]).toMatch(/^capture\s+.*\s+200\s+pi_\w{24}\s+captured$/);
    const intent = await paysim.api("GET", `/v1/payment_intents/${id}`);
    expect(intent.body).toMatchObject({ amount: 2500, state: "captured" });
  });

  it("prints every response with --json and applies --override", async () => {
    const { code, stdout } = await run("checkout-json.json", checkout, "--json", "--override", "pi.body.amount=777");
    expect(code).toBe(0);
    const { steps } = JSON.parse(stdout);
    expect(steps.map((s: any) => [s.step, s.status, s.response.state])).toEqual([
      ["pi", 201, "created"],
      ["auth", 200, "authorized"],
      ["capture", 200, "captured"],
    ]);
    expect(steps[0].response.amount).toBe(777);
  });

  it.each([
    ["not JSON", '{ "steps": [', /^paysim: bad fixture: .*not-json\.json: is not valid JSON/],
    ["no steps", { stepz: [] }, /field "stepz": is not a fixture field/],
    ["an empty steps list", { steps: [] }, /field "steps": is empty/],
    ["a step without method", { steps: [{ name: "pi", path: "/v1/payment_intents" }] }, /step "pi", field "method": is missing/],
    ["a step without path", { steps: [{ name: "pi", method: "POST" }] }, /step "pi", field "path": is missing/],
    [
      "an unknown method",
      { steps: [{ name: "pi", method: "PUT", path: "/v1/payment_intents" }] },
      /step "pi", field "method": "PUT" is not a method paysim serves/,
    ],
    [
      "a reference to an unknown step",
      {
        steps: [
          { name: "pi", method: "POST", path: "/v1/payment_intents", body: { amount: 1 } },
          { name: "auth", method: "POST", path: "/v1/payment_intents/${intent.id}/authorize" },
        ],
      },
      /step "auth", field "path": \$\{intent.id\} refers to "intent", which is not the name of an earlier step/,
    ],
  ])("refuses a file with %s, naming the step and field, and calls nothing", async (kind, content, message) => {
    const before = await paysim.api("GET", "/v1/events?limit=1");
    const file = kind === "not JSON" ? "not-json.json" : `bad-${kind.replaceAll(" ", "-")}.json`;
    const { code, stdout, stderr } = await run(file, content);
    expect(code).toBe(1);
    expect(stdout).toBe("");
    expect(stderr).toMatch(message);
    const after = await paysim.api("GET", "/v1/events?limit=1");
    expect(after.body.data[0]?.id).toBe(before.body.data[0]?.id);
  });

  it("stops at a reference to a field the response does not have, naming step and field", async () => {
    const { code, stderr } = await run("bad-field.json", {
      steps: [
        { name: "pi", method: "POST", path: "/v1/payment_intents", body: { amount: 100 } },
        { name: "auth", method: "POST", path: "/v1/payment_intents/${pi.identifier}/authorize" },
      ],
    });
    expect(code).toBe(1);
    expect(stderr).toMatch(/step "auth", field "path": \$\{pi.identifier\}: the response of step "pi" has no field "identifier"/);
  });

  it("stops at a refused step with exit 1, the step, and code: message", async () => {
    const { code, stdout, stderr } = await run("refused.json", {
      steps: [
        { name: "pi", method: "POST", path: "/v1/payment_intents", body: { amount: 100 } },
        { name: "capture", method: "POST", path: "/v1/payment_intents/${pi.id}/capture" },
        { name: "cancel", method: "POST", path: "/v1/payment_intents/${pi.id}/cancel" },
      ],
    });
    expect(code).toBe(1);
    expect(stderr).toMatch(/^paysim: step "capture" failed \(HTTP 400\): invalid_request: \S.*\n$/);
    expect(stdout).toMatch(/^pi\s/m);
    const id = /pi_\w{24}/.exec(stdout)![0];
    // The step after the failure never ran: the intent was not canceled.
    expect((await paysim.api("GET", `/v1/payment_intents/${id}`)).body.state).toBe("created");
  });

  it("refuses a file that does not exist", async () => {
    const { code, stderr } = await runCli(["fixtures", "run", join(dir, "missing.json"), "--url", paysim.url, "--key", paysim.secretKey]);
    expect(code).toBe(1);
    expect(stderr).toMatch(/no fixture file at .*missing\.json/);
  });

  it("refuses a missing file argument with the usage", async () => {
    const { code, stderr } = await runCli(["fixtures", "run"]);
    expect(code).toBe(1);
    expect(stderr).toBe("paysim fixtures run: the <file> argument is missing.\nsee paysim fixtures run --help\n");
  });
});

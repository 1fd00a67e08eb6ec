import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { PAYSIM_BIN, runCli } from "../helpers/cli.js";
import { usePaysim, useTempDir } from "../helpers/disposables.js";
import { createIntent } from "../helpers/paysim.js";
import { readBlocks } from "../docs/markdown-examples.js";
import { coverageRatios } from "../helpers/coverage-totals.js";

const TESTING_MD = fileURLToPath(new URL("../../docs/testing.md", import.meta.url));

/** An expression, in a command's script, that creates a payment intent on the paysim exec started. */
const CREATE_INTENT = `fetch(process.env.PAYSIM_URL + "/v1/payment_intents", { method: "POST", headers: { Authorization: "Bearer " + process.env.PAYSIM_SECRET_KEY, "Content-Type": "application/json", "Idempotency-Key": crypto.randomUUID() }, body: JSON.stringify({ amount: 100 }) })`;

describe("paysim coverage", () => {
  it("prints one line per area with its ratio, then the uncovered items grouped by area", async () => {
    const paysim = await usePaysim({ payouts: "manual" });
    const intent = await createIntent(paysim);
    expect((await paysim.api("POST", `/v1/payment_intents/${intent.id}/cancel`, { body: {} })).status).toBe(200);

    const { code, stdout, stderr } = await runCli(["coverage", "--url", paysim.url, "--key", paysim.secretKey]);
    expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
    const lines = stdout.split("\n");
    const ratio = coverageRatios({ operations: 2, transitions: 1, events: 2 });
    expect(lines.slice(0, 7)).toEqual([
      "AREA         COVERED",
      `operations   ${ratio.operations}`,
      `transitions  ${ratio.transitions}`,
      `events       ${ratio.events}`,
      `webhooks     ${ratio.webhooks}`,
      `errors       ${ratio.errors}`,
      `faults       ${ratio.faults}`,
    ]);
    expect(lines[8]).toBe("Uncovered:");
    const uncovered = stdout.slice(stdout.indexOf("Uncovered:"));
    expect(uncovered).toMatch(/^ {2}operations: {2}listPaymentIntents, getPaymentIntent,/m);
    expect(uncovered).toMatch(/^ {2}transitions: payment_intent: created->authorized,/m);
    expect(uncovered).toMatch(/^ {2}faults: {6}server_error, rate_limited, lost_response, timeout, latency$/m);
    expect(uncovered).not.toContain("createPaymentIntent");
    expect(uncovered).not.toContain("created->canceled");
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(100);
  });

  it("prints the whole report with --json", async () => {
    const paysim = await usePaysim();
    await createIntent(paysim);
    const { code, stdout } = await runCli(["coverage", "--json", "--url", paysim.url, "--key", paysim.secretKey]);
    expect(code).toBe(0);
    const report = JSON.parse(stdout);
    expect(report).toMatchObject({ object: "coverage", version: 1, operations: { createPaymentIntent: { calls: 1, statuses: { "201": 1 } } } });
    expect(report.uncovered.events).not.toContain("payment_intent.created");
  });

  it("--clear starts the company's coverage anew; a reset keeps it", async () => {
    const paysim = await usePaysim();
    await createIntent(paysim);
    const flags = ["--url", paysim.url, "--key", paysim.secretKey];
    expect((await runCli(["reset", ...flags])).code).toBe(0);
    expect(JSON.parse((await runCli(["coverage", "--json", ...flags])).stdout).operations.createPaymentIntent.calls).toBe(1);

    const cleared = await runCli(["coverage", "--clear", ...flags]);
    expect({ code: cleared.code, stderr: cleared.stderr }).toEqual({ code: 0, stderr: "" });
    const since = paysim.coverage().since;
    expect(cleared.stdout).toBe(`Coverage cleared: counting again from ${since}.\n`);
    expect(paysim.coverage().operations.createPaymentIntent!.calls).toBe(0);
    const json = await runCli(["coverage", "--clear", "--json", ...flags]);
    expect(JSON.parse(json.stdout)).toMatchObject({ object: "coverage_cleared", since: expect.any(String) });
  });

  it("refuses an argument it does not take, with the usage", async () => {
    const { code, stderr } = await runCli(["coverage", "all"]);
    expect(code).toBe(1);
    expect(stderr).toBe("paysim coverage: too many arguments: it takes 0 and got 1 (quote a value that holds spaces).\nsee paysim coverage --help\n");
  });
});

describe("paysim exec --coverage", () => {
  it("writes the default company's report after the command ends, prints its summary on stderr, and keeps the command's exit status", async () => {
    const dir = useTempDir("paysim-cli-coverage-");
    const script = `${CREATE_INTENT}.then((r) => { console.log("created", r.status); process.exit(3); })`;
    const result = await runCli(["exec", "--coverage", "coverage.json", "--", process.execPath, "-e", script], { cwd: dir });
    expect(result.code).toBe(3);
    expect(result.stdout).toBe("created 201\n");
    const ratio = coverageRatios({ operations: 1, events: 1 });
    expect(result.stderr).toBe(
      `paysim: coverage: operations ${ratio.operations}, transitions ${ratio.transitions}, events ${ratio.events}, webhooks ${ratio.webhooks}, errors ${ratio.errors}, faults ${ratio.faults} (coverage.json)\n`,
    );
    const report = JSON.parse(readFileSync(join(dir, "coverage.json"), "utf8"));
    expect(report.operations.createPaymentIntent).toEqual({ calls: 1, statuses: { "201": 1 } });
    expect(report.summary).toEqual(ratio);
  });

  it("writes it even when the command could not be run, and says so when the file cannot be written", async () => {
    const dir = useTempDir("paysim-cli-coverage-");
    const missing = await runCli(["exec", "--coverage", "c.json", "--", join(dir, "no-such-command")], { cwd: dir });
    expect(missing.code).toBe(127);
    expect(JSON.parse(readFileSync(join(dir, "c.json"), "utf8")).summary).toEqual(coverageRatios());

    const unwritable = await runCli(["exec", "--coverage", join(dir, "no-dir", "c.json"), "--", process.execPath, PAYSIM_BIN, "clock", "show"], { cwd: dir });
    expect(unwritable.code).toBe(0);
    expect(unwritable.stderr).toMatch(/^paysim: Cannot write the coverage report .*no-dir\/c\.json: ENOENT/m);
  });
});

/**
 * A command's script that starts two instances on the paysim exec started, makes calls in each
 * (one of them resetting between its calls), and stops both, as a suite with two workers does.
 */
const TWO_WORKERS = `
const call = async (url, key, method, path, body, idempotencyKey) => {
  const headers = { Authorization: "Bearer " + key, "Content-Type": "application/json" };
  if (idempotencyKey) headers["Idempotency-Key"] = idempotencyKey;
  const response = await fetch(url + path, { method, headers, body: body && JSON.stringify(body) });
  return { status: response.status, body: await response.json() };
};
const parent = [process.env.PAYSIM_URL, process.env.PAYSIM_SECRET_KEY];
const workers = [];
for (const name of ["worker 1", "worker 2"]) {
  const created = await call(...parent, "POST", "/v1/sandbox/instances", { name }, crypto.randomUUID());
  if (created.status !== 201) throw new Error(JSON.stringify(created));
  workers.push(created.body);
}
const [one, two] = workers;
await call(one.url, one.secret_key, "POST", "/v1/payment_intents", { amount: 100 }, crypto.randomUUID());
await call(two.url, two.secret_key, "POST", "/v1/sandbox/reset", {});
const payout = { amount: 500, currency: "EUR", destination_type: "card", destination_token: "tok_card_visa" };
await call(two.url, two.secret_key, "POST", "/v1/payouts", payout, crypto.randomUUID());
await call(two.url, two.secret_key, "POST", "/v1/sandbox/reset", {});
await call(two.url, two.secret_key, "GET", "/v1/payouts");
for (const worker of workers) await call(...parent, "DELETE", "/v1/sandbox/instances/" + worker.id);
console.log("workers done");
`;

describe("paysim exec --coverage with instances and resets", () => {
  it("covers every worker's instance, stopped before the command ended", async () => {
    const dir = useTempDir("paysim-cli-coverage-");
    writeFileSync(join(dir, "workers.mjs"), TWO_WORKERS);
    const result = await runCli(["exec", "--coverage", "out.json", "--", process.execPath, "workers.mjs"], { cwd: dir });
    expect({ code: result.code, stdout: result.stdout }).toEqual({ code: 0, stdout: "workers done\n" });
    expect(result.stderr.startsWith(`paysim: coverage: operations ${coverageRatios({ operations: 3 }).operations}, `)).toBe(true);
    const report = JSON.parse(readFileSync(join(dir, "out.json"), "utf8"));
    expect(report.instances).toBe(2);
    expect(report.operations.createPaymentIntent).toEqual({ calls: 1, statuses: { "201": 1 } });
    expect(report.operations.createPayout).toEqual({ calls: 1, statuses: { "201": 1 } });
    expect(report.operations.listPayouts).toEqual({ calls: 1, statuses: { "200": 1 } });
    expect(report.events).toMatchObject({ "payment_intent.created": 1, "payout.created": 1 });
  });

  it("keeps the coverage of a suite that resets between its calls", async () => {
    const dir = useTempDir("paysim-cli-coverage-");
    const script = `
const call = (method, path, body) => fetch(process.env.PAYSIM_URL + path, { method, headers: { Authorization: "Bearer " + process.env.PAYSIM_SECRET_KEY, "Content-Type": "application/json", "Idempotency-Key": crypto.randomUUID() }, body: JSON.stringify(body) });
for (const amount of [100, 200, 300]) {
  await call("POST", "/v1/sandbox/reset", {});
  await call("POST", "/v1/payment_intents", { amount });
}`;
    writeFileSync(join(dir, "resets.mjs"), script);
    const result = await runCli(["exec", "--coverage", "out.json", "--", process.execPath, "resets.mjs"], { cwd: dir });
    expect(result.code).toBe(0);
    const report = JSON.parse(readFileSync(join(dir, "out.json"), "utf8"));
    expect(report.operations.createPaymentIntent).toEqual({ calls: 3, statuses: { "201": 3 } });
    expect(report.events["payment_intent.created"]).toBe(3);
  });
});

describe("docs/testing.md's coverage check for CI", () => {
  it("fails, naming the items, when a required item was never exercised (its walk-through shows it passing)", async () => {
    const block = readBlocks(TESTING_MD).find(
      (b) => b.marker?.kind === "example-file" && b.marker.name === "coverage" && b.marker.path === "check-coverage.mjs",
    );
    expect(block, "the check-coverage.mjs block of docs/testing.md").toBeDefined();
    const dir = useTempDir("paysim-cli-coverage-check-");
    writeFileSync(join(dir, "check-coverage.mjs"), block!.body);
    // A suite that does nothing: the required items stay uncovered.
    const run = await runCli(["exec", "--coverage", "coverage.json", "--", process.execPath, "-e", ""], { cwd: dir });
    expect(run.code).toBe(0);
    const failing = spawnSync(process.execPath, ["check-coverage.mjs"], { cwd: dir, encoding: "utf8" });
    expect(failing.status).toBe(1);
    expect(failing.stderr).toBe("Never exercised:\n  operations: createPaymentIntent\n  events: payment_intent.created\n");

    // The same check passes once the suite creates a payment intent.
    const covering = await runCli(
      ["exec", "--coverage", "coverage.json", "--", process.execPath, "-e", `${CREATE_INTENT}.then((r) => process.exit(r.status === 201 ? 0 : 1))`],
      { cwd: dir },
    );
    expect(covering.code).toBe(0);
    const passing = spawnSync(process.execPath, ["check-coverage.mjs"], { cwd: dir, encoding: "utf8" });
    expect({ status: passing.status, stdout: passing.stdout }).toEqual({ status: 0, stdout: "All 2 required items covered.\n" });
  });
});

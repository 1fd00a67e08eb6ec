import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { PAYSIM_BIN, runCli } from "../helpers/cli.js";
import { usePaysim, useTempDir } from "../helpers/disposables.js";
import { createIntent } from "../helpers/paysim.js";
import { readBlocks } from "../docs/markdown-examples.js";

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
    expect(lines.slice(0, 7)).toEqual([
      "AREA         COVERED",
      "operations   2/16",
      "transitions  1/11",
      "events       2/12",
      "webhooks     0/10",
      "errors       0/9",
      "faults       0/5",
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
    expect(result.stderr).toBe("paysim: coverage: operations 1/16, transitions 0/11, events 1/12, webhooks 0/10, errors 0/9, faults 0/5 (coverage.json)\n");
    const report = JSON.parse(readFileSync(join(dir, "coverage.json"), "utf8"));
    expect(report.operations.createPaymentIntent).toEqual({ calls: 1, statuses: { "201": 1 } });
    expect(report.summary.operations).toBe("1/16");
  });

  it("writes it even when the command could not be run, and says so when the file cannot be written", async () => {
    const dir = useTempDir("paysim-cli-coverage-");
    const missing = await runCli(["exec", "--coverage", "c.json", "--", join(dir, "no-such-command")], { cwd: dir });
    expect(missing.code).toBe(127);
    expect(JSON.parse(readFileSync(join(dir, "c.json"), "utf8")).summary.operations).toBe("0/16");

    const unwritable = await runCli(["exec", "--coverage", join(dir, "no-dir", "c.json"), "--", process.execPath, PAYSIM_BIN, "clock", "show"], { cwd: dir });
    expect(unwritable.code).toBe(0);
    expect(unwritable.stderr).toMatch(/^paysim: Cannot write the coverage report .*no-dir\/c\.json: ENOENT/m);
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

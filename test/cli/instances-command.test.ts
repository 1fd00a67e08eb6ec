// `paysim instances create / list / stop`, the real binary against a real `paysim start`.
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { usePaysimCli, useTempDir } from "../helpers/disposables.js";
import { callApi } from "../helpers/paysim.js";

const entries = (cwd: string) => (existsSync(join(cwd, ".paysim", "instances")) ? readdirSync(join(cwd, ".paysim", "instances")) : []);

describe("paysim instances", () => {
  it("creates one with paysim start's flags, prints its URL and key, lists it, stops it; none is listed in .paysim/instances/", async () => {
    const cwd = useTempDir("paysim-instances-cmd-");
    const parent = await usePaysimCli(["--no-ui"], { cwd });

    const created = await runCli(
      ["instances", "create", "--name", "Worker 3", "--currency", "USD", "--secret-key", "sk_test_worker_3", "--payouts", "manual", "--time-scale", "60"],
      { cwd },
    );
    expect(created.code, created.stderr).toBe(0);
    const [, id, url] = /^Started (ins_\w+) at (http:\/\/127\.0\.0\.1:\d+)$/m.exec(created.stdout)!;
    expect(created.stdout).toMatch(/^key +sk_test_worker_3$/m);
    expect(created.stdout).toContain(`--url ${url} --key sk_test_worker_3`);
    // The key works there, with the company and clock the flags gave.
    const intent = await callApi(url!, "sk_test_worker_3", "POST", "/v1/payment_intents", { body: { amount: 100 }, idempotencyKey: "cli-1" });
    expect(intent.body.currency).toBe("USD");
    expect((await callApi(url!, "sk_test_worker_3", "GET", "/v1/sandbox/clock")).body.time_scale).toBe(60);
    expect(entries(cwd)).toEqual([`${parent.cli.child.pid}.json`]);

    const json = await runCli(
      ["instances", "create", "--forward-to", "http://127.0.0.1:9/a", "--forward-to", "http://127.0.0.1:9/b", "--webhook-secret", "whsec_cli", "--json"],
      { cwd },
    );
    expect(json.code, json.stderr).toBe(0);
    const second = JSON.parse(json.stdout);
    expect(second).toMatchObject({ object: "instance", signing_secret: "whsec_cli" });
    const endpoints = await callApi(second.url, second.secret_key, "GET", "/v1/webhook_endpoints");
    expect(endpoints.body.data.map((endpoint: { url: string }) => endpoint.url)).toEqual(["http://127.0.0.1:9/a", "http://127.0.0.1:9/b"]);

    const listed = await runCli(["instances", "list"], { cwd });
    expect(listed.code).toBe(0);
    expect(listed.stdout.split("\n")[0]).toMatch(/^ID +URL +KEY +SIGNING SECRET +CREATED$/);
    expect(listed.stdout).toContain(`${id}  ${url}`);
    expect(listed.stdout).toContain(second.id);

    const stopped = await runCli(["instances", "stop", id!], { cwd });
    expect(stopped.code, stopped.stderr).toBe(0);
    expect(stopped.stdout).toBe(`Stopped ${id}: its port is closed and its data is gone.\n`);
    await expect(fetch(`${url}/health`)).rejects.toThrow();
    const again = await runCli(["instances", "stop", id!], { cwd });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`not_found: No such instance: "${id}".`);

    // Its parent stopped, the other instance is gone with it.
    expect((await parent.cli.stop("SIGTERM")).code).toBe(0);
    await expect(fetch(`${second.url}/health`)).rejects.toThrow();
  });

  it("creates one with a key and signing secret holding 13 or more digits in a row, prints and lists them exactly, and the key works", async () => {
    const cwd = useTempDir("paysim-instances-cmd-");
    await usePaysimCli(["--no-ui"], { cwd });
    const key = "sk_test_ci_1732212345678901234";
    const secret = "whsec_ci_7302212345678901234";
    const flags = ["--secret-key", key, "--webhook-secret", secret, "--forward-to", "http://127.0.0.1:9/a"];

    const created = await runCli(["instances", "create", ...flags], { cwd });
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout).toMatch(new RegExp(`^key +${key}$`, "m"));
    expect(created.stdout).toMatch(new RegExp(`^signing secret +${secret}$`, "m"));
    const [, url] = /^Started ins_\w+ at (http:\/\/127\.0\.0\.1:\d+)$/m.exec(created.stdout)!;
    expect(created.stdout).toContain(`--url ${url} --key ${key};`);
    expect((await callApi(url!, key, "GET", "/v1/payment_intents")).status).toBe(200);

    const json = JSON.parse((await runCli(["instances", "create", ...flags, "--json"], { cwd })).stdout);
    expect(json).toMatchObject({ secret_key: key, signing_secret: secret });
    expect((await callApi(json.url, key, "GET", "/v1/payment_intents")).status).toBe(200);

    const listed = await runCli(["instances", "list"], { cwd });
    expect(listed.stdout.split("\n").filter((line) => line.includes(`${key}  ${secret}`))).toHaveLength(2);
    expect(JSON.parse((await runCli(["instances", "list", "--json"], { cwd })).stdout).data).toMatchObject([
      { secret_key: key, signing_secret: secret },
      { secret_key: key, signing_secret: secret },
    ]);
  });

  it("refuses a bad flag with the server's words naming the field, and exits 1", async () => {
    const cwd = useTempDir("paysim-instances-cmd-");
    await usePaysimCli(["--no-ui"], { cwd });
    const refused = await runCli(["instances", "create", "--secret-key", "pk_live_nope"], { cwd });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      "paysim: invalid_request: secret_key must be sk_test_ followed by 1 to 200 printable ASCII characters without spaces, e.g. sk_test_x. (param: secret_key)\n",
    );
    const scale = await runCli(["instances", "create", "--time-scale", "0"], { cwd });
    expect(scale.code).toBe(1);
    expect(scale.stderr).toBe(
      'paysim instances create: --time-scale "0" is invalid: it must be a number greater than 0 and at most 1000000, e.g. 60.\nsee paysim instances create --help\n',
    );
    const listed = await runCli(["instances", "list"], { cwd });
    expect(listed.stdout).toBe("No instances running.\n");
  });
});

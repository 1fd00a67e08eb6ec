import { Database } from "../../src/store/sqlite-driver.js";
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { VERSION } from "../../src/version.js";
import { runCli } from "../helpers/cli.js";
import { defer, useCli, usePaysimCli, useTempDir } from "../helpers/disposables.js";
import { callApi, clientFor, createIntent } from "../helpers/paysim.js";
import { freePort } from "../helpers/receiver.js";

/** A fresh folder, removed when the test finishes. */
function folder(): string {
  return useTempDir("paysim-cli-start-");
}
/** A serving `paysim start`, run in a folder of its own (":memory:" writes .paysim/instance.json in the working folder); killed when the test finishes unless it has stopped already. */
function serving(args: string[], env?: Record<string, string | undefined>) {
  return usePaysimCli(args, { env, cwd: folder() });
}

const mode = (path: string) => statSync(path).mode & 0o777;

describe("paysim start", () => {
  it("prints its URL and a generated key, serves on that URL, and writes instance.json (0600) beside the database", async () => {
    const dir = folder();
    const db = join(dir, "data", "paysim.db");
    const { cli, url, key } = await serving(["--db", db]);
    expect(cli.stdout()).toContain(`paysim ${VERSION} listening on ${url}`);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(key).toMatch(/^sk_test_[0-9A-Za-z]{32}$/);
    expect(cli.stdout()).toMatch(/company {3}Sandbox Merchant \(EUR\) \[default\]/);

    const health = await fetch(`${url}/health`);
    expect(await health.json()).toMatchObject({ status: "ok", version: VERSION });
    expect((await callApi(url, key, "GET", "/v1/payment_intents")).status).toBe(200);

    const instancePath = join(dir, "data", "instance.json");
    expect(mode(instancePath)).toBe(0o600);
    const instance = JSON.parse(readFileSync(instancePath, "utf8"));
    expect(instance).toMatchObject({ url, secret_key: key, db, pid: cli.child.pid });
    expect(mode(db)).toBe(0o600);
  });

  it("prints the same generated key on a second start on the same database, and the data is still there", async () => {
    const db = join(folder(), "paysim.db");
    const first = await serving(["--db", db]);
    const intent = await createIntent(clientFor(first.url, first.key));
    expect((await first.cli.stop("SIGTERM")).code).toBe(0);

    const second = await serving(["--db", db]);
    expect(second.key).toBe(first.key);
    const read = await callApi(second.url, second.key, "GET", `/v1/payment_intents/${intent.id}`);
    expect(read.status).toBe(200);
  });

  it("honours PAYSIM_PORT and PAYSIM_SECRET_KEY", async () => {
    const port = await freePort();
    const db = join(folder(), "paysim.db");
    const cli = useCli(["start", "--db", db], { cwd: folder(), env: { PAYSIM_PORT: String(port), PAYSIM_SECRET_KEY: "sk_test_from_env_0001" } });
    const [, url] = await cli.waitFor(/listening on (http:\/\/\S+)/);
    await cli.waitFor(/^ {2}database /m);
    expect(url).toBe(`http://127.0.0.1:${port}`);
    expect(cli.stdout()).toMatch(/^ {2}key {7}sk_test_from_env_0001$/m);
    expect((await callApi(url!, "sk_test_from_env_0001", "GET", "/v1/payment_intents")).status).toBe(200);
  });

  it("lets --secret-key win over PAYSIM_SECRET_KEY", async () => {
    const { key } = await serving(["--db", ":memory:", "--secret-key", "sk_test_from_flag_0001"], { PAYSIM_SECRET_KEY: "sk_test_from_env_0001" });
    expect(key).toBe("sk_test_from_flag_0001");
  });

  it("prints one log line per request, METHOD /path STATUS Nms, with a PAN in the path masked", async () => {
    const { cli, url, key } = await serving(["--db", join(folder(), "paysim.db")]);
    await callApi(url, key, "GET", "/v1/payment_intents?limit=1");
    await callApi(url, key, "GET", "/v1/payment_intents/4242424242424242");
    await callApi(url, key, "GET", "/v1/events", { key: null });
    await cli.waitFor(/^GET \/v1\/events 401 \d+(\.\d+)?ms$/m);
    const lines = cli
      .stdout()
      .split("\n")
      .filter((line) => /^[A-Z]+ \//.test(line));
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^GET \/v1\/payment_intents 200 \d+(\.\d+)?ms$/);
    expect(lines[1]).toMatch(/^GET \/v1\/payment_intents\/\*{12}4242 404 \d+(\.\d+)?ms$/);
    expect(cli.stdout() + cli.stderr()).not.toContain("4242424242424242");
  });

  it.each(["SIGTERM", "SIGINT"] as const)("stops on %s with exit code 0, the database closed, and a new start sees the earlier data", async (signal) => {
    const db = join(folder(), "paysim.db");
    const first = await serving(["--db", db, "--secret-key", "sk_test_signal_0001"]);
    const intent = await createIntent(clientFor(first.url, first.key));
    const result = await first.cli.stop(signal);
    expect(result.code).toBe(0);
    expect(result.signal).toBeNull();
    expect(result.stdout).toContain(`${signal} received`);
    // A cleanly closed WAL database has been checkpointed and its -wal file removed.
    expect(existsSync(`${db}-wal`)).toBe(false);
    await expect(fetch(`${first.url}/health`)).rejects.toThrow();

    const second = await serving(["--db", db, "--secret-key", "sk_test_signal_0001"]);
    const read = await callApi(second.url, second.key, "GET", `/v1/payment_intents/${intent.id}`);
    expect(read.body).toMatchObject({ id: intent.id, state: "created" });
  });

  it("refuses a bad config file with exit 1, naming the file and the field on stderr, and writes no database", async () => {
    const dir = folder();
    const config = join(dir, "paysim.config.json");
    writeFileSync(config, JSON.stringify({ companies: [{ name: "Acme", currency: "euro" }] }));
    const db = join(dir, "paysim.db");
    const result = await runCli(["start", "--port", "0", "--db", db, "--config", config], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(config);
    expect(result.stderr).toContain("companies[0].currency");
    expect(result.stdout).not.toContain("listening");
    expect(existsSync(db)).toBe(false);
  });

  it("starts with the companies of a good config file", async () => {
    const dir = folder();
    const config = join(dir, "paysim.config.json");
    writeFileSync(
      config,
      JSON.stringify({
        companies: [
          { name: "Acme", secret_key: "sk_test_acme_cli_0001" },
          { name: "Globex", currency: "USD", secret_key: "sk_test_globex_cli_0001" },
        ],
      }),
    );
    const { cli, url, key } = await serving(["--db", join(dir, "paysim.db"), "--config", config]);
    expect(key).toBe("sk_test_acme_cli_0001");
    expect(cli.stdout()).toMatch(/company {3}Globex \(USD\)/);
    const intent = await createIntent(clientFor(url, "sk_test_globex_cli_0001"));
    expect(intent.currency).toBe("USD");
  });

  it("starts with the short key and signing secret the docs allow, and that key authenticates", async () => {
    const { cli, url, key } = await serving([
      "--db",
      ":memory:",
      "--secret-key",
      "sk_test_fw_0001",
      "--forward-to",
      "http://127.0.0.1:9/hooks",
      "--webhook-secret",
      "whsec_acme",
    ]);
    expect(key).toBe("sk_test_fw_0001");
    expect(cli.stdout()).toMatch(/whsec_acme/);
    expect((await callApi(url, "sk_test_fw_0001", "GET", "/v1/payment_intents")).status).toBe(200);
    const endpoints = await callApi(url, "sk_test_fw_0001", "GET", "/v1/webhook_endpoints");
    expect(endpoints.body.data.map((e: { secret: string }) => e.secret)).toEqual(["whsec_acme"]);
  });

  it.each([
    [
      "--secret-key",
      "without the sk_test_ prefix",
      "sk_live_0123456789",
      "--secret-key must be sk_test_ followed by 1 to 200 printable ASCII characters without spaces, e.g. sk_test_x.",
    ],
    ["--secret-key", "with nothing after sk_test_", "sk_test_", "--secret-key must be sk_test_ followed by"],
    ["--secret-key", "with a space", "sk_test_a b", "--secret-key must be sk_test_ followed by"],
    ["--secret-key", "of 201 characters after sk_test_", `sk_test_${"a".repeat(201)}`, "--secret-key must be sk_test_ followed by"],
    [
      "--webhook-secret",
      "with nothing after whsec_",
      "whsec_",
      "--webhook-secret must be whsec_ followed by 1 to 200 printable ASCII characters without spaces, e.g. whsec_acme.",
    ],
    ["--webhook-secret", "with a non-ASCII character", "whsec_acmé", "--webhook-secret must be whsec_ followed by"],
  ])("refuses a %s %s with exit 1 and a message, writing nothing", async (flag, _name, value, message) => {
    const dir = folder();
    const db = join(dir, "paysim.db");
    const result = await runCli(["start", "--port", "0", "--db", db, flag, value], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stderr.startsWith(`paysim: ${message}`)).toBe(true);
    expect(result.stdout).not.toMatch(/listening/);
    expect(existsSync(db)).toBe(false);
  });

  it.each([
    ["notaurl", ["--forward-to", "notaurl"]],
    ["ftp://example.com/hooks", ["--forward-to", "ftp://example.com/hooks"]],
    ["http://user:pass@127.0.0.1:3000/hooks", ["--forward-to", "http://127.0.0.1:3000/ok", "--forward-to", "http://user:pass@127.0.0.1:3000/hooks"]],
  ])("refuses --forward-to %s with exit 1 and the API's message, writing nothing", async (url, args) => {
    const dir = folder();
    const db = join(dir, "paysim.db");
    const result = await runCli(["start", "--port", "0", "--db", db, ...args], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `paysim: --forward-to ${JSON.stringify(url)} must be an http:// or https:// URL, e.g. http://localhost:3000/webhooks (at most 2048 characters).\n`,
    );
    expect(result.stdout).not.toMatch(/listening/);
    expect(existsSync(db)).toBe(false);
  });

  it("refuses a database from a newer paysim with exit 1", async () => {
    const db = join(folder(), "paysim.db");
    const raw = new Database(db);
    raw.pragma("user_version = 9990");
    raw.close();
    const result = await runCli(["start", "--port", "0", "--db", db], { cwd: folder() });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/schema version 9990, newer than this paysim/);
  });

  it("refuses a port in use with exit 1 and says so", async () => {
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    defer(() => new Promise<void>((resolve) => blocker.close(() => resolve())));
    const port = (blocker.address() as { port: number }).port;
    const result = await runCli(["start", "--port", String(port), "--db", ":memory:"], { cwd: folder() });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(new RegExp(`Port ${port} .*already in use`));
  });

  it("warns when --host makes it reachable from the network", async () => {
    const { cli } = await serving(["--db", ":memory:", "--host", "0.0.0.0"]);
    await cli.waitFor(/warning +listening on 0\.0\.0\.0: this sandbox is reachable from the network/);
  });

  it("does not warn on the default loopback host", async () => {
    const { cli, url, key } = await serving(["--db", join(folder(), "paysim.db")]);
    // A request's log line comes after the whole banner: by then a warning would have been printed.
    await callApi(url, key, "GET", "/health");
    await cli.waitFor(/^GET \/health 200 /m);
    expect(cli.stdout()).not.toMatch(/warning/);
  });
});

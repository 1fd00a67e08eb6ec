import { describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { InvalidDurationError, startPaysim, verifySignature, type RunningPaysim } from "../src/index.js";
import { useReceiver, useTempDir, useStartedPaysim } from "./helpers/disposables.js";
import { callApi, freshKey } from "./helpers/paysim.js";

const DIST_INDEX = fileURLToPath(new URL("../dist/index.js", import.meta.url));

const start = (options: Parameters<typeof startPaysim>[0] = {}) => useStartedPaysim(options);

const api = (paysim: RunningPaysim, method: string, path: string, body?: object) =>
  callApi(paysim.url, paysim.secretKey, method, path, { body, idempotencyKey: method === "POST" ? freshKey() : undefined });

/** Resolves once a plain TCP server could listen on the port (and has let go of it). */
function canListenOn(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

describe("startPaysim", () => {
  it("serves the API on a free loopback port with a generated key", async () => {
    const paysim = await start();
    expect(paysim.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(paysim.secretKey).toMatch(/^sk_test_/);
    expect(paysim.signingSecret).toBeUndefined();
    const created = await api(paysim, "POST", "/v1/payment_intents", { amount: 1000 });
    expect(created.status).toBe(201);
    expect(created.body.checkout_url).toBe(`${paysim.url}/checkout/${created.body.id}`);
  });

  it("takes the start options in camelCase", async () => {
    const paysim = await start({
      secretKey: "sk_test_integration_0001",
      forwardTo: "http://127.0.0.1:9/hooks",
      webhookSecret: "whsec_integration_0001",
      timeScale: 2,
    });
    expect(paysim.secretKey).toBe("sk_test_integration_0001");
    expect(paysim.signingSecret).toBe("whsec_integration_0001");
    const clock = await api(paysim, "GET", "/v1/sandbox/clock");
    expect(clock.body.time_scale).toBe(2);
  });

  it("accepts the shortest documented keys and secrets: sk_test_x authenticates, whsec_x signs", async () => {
    const paysim = await start({ secretKey: "sk_test_x", forwardTo: "http://127.0.0.1:9/hooks", webhookSecret: "whsec_x" });
    expect(paysim.signingSecret).toBe("whsec_x");
    expect((await callApi(paysim.url, "sk_test_x", "GET", "/v1/payment_intents")).status).toBe(200);
  });

  it.each([
    [{ secretKey: "sk_test_" }, "secretKey must be sk_test_ followed by 1 to 200 printable ASCII characters without spaces, e.g. sk_test_x."],
    [{ secretKey: "sk_test_has space" }, "secretKey must be sk_test_"],
    [{ webhookSecret: "whsec_" }, "webhookSecret must be whsec_ followed by 1 to 200 printable ASCII characters without spaces, e.g. whsec_acme."],
    [{ forwardTo: "notaurl" }, 'forwardTo "notaurl" must be an http:// or https:// URL'],
    [{ forwardTo: ["http://127.0.0.1:9/ok", "ftp://example.com/x"] }, 'forwardTo "ftp://example.com/x" must be an http:// or https:// URL'],
  ])("refuses %j with a ConfigError naming the option, and starts nothing", async (options, message) => {
    await expect(startPaysim(options)).rejects.toThrow(expect.objectContaining({ name: "ConfigError", message: expect.stringContaining(message) }));
  });

  it.each([
    [{ random: () => Buffer.alloc(64) }, 'startPaysim() has no option "random"; its options are port, host, db,'],
    [{ realNow: () => 0 }, 'startPaysim() has no option "realNow"'],
    [{ forwardto: "http://127.0.0.1:9/hooks" }, 'startPaysim() has no option "forwardto"'],
  ])("refuses an option it does not document (%j), as plain JavaScript could pass it", async (options, message) => {
    await expect(startPaysim(options as never)).rejects.toThrow(expect.objectContaining({ name: "ConfigError", message: expect.stringContaining(message) }));
  });

  it("gives the generated signing secret of the first forwardTo endpoint", async () => {
    const paysim = await start({ forwardTo: ["http://127.0.0.1:9/first", "http://127.0.0.1:9/second"] });
    expect(paysim.signingSecret).toMatch(/^whsec_/);
  });

  it("signs deliveries to forwardTo with signingSecret, which verifySignature accepts", async () => {
    const receiver = await useReceiver();
    const paysim = await start({ forwardTo: receiver.url });
    await api(paysim, "POST", "/v1/payment_intents", { amount: 1000 });
    const [delivery] = await receiver.waitForRequests(1);
    const header = delivery!.headers["service-signature"] as string;
    expect(verifySignature(delivery!.body, header, paysim.signingSecret!)).toBe(true);
    expect(verifySignature(Buffer.concat([delivery!.body, Buffer.from(" ")]), header, paysim.signingSecret!)).toBe(false);
    expect(verifySignature(delivery!.body, header, "whsec_someone_else")).toBe(false);
  });

  it("runs several instances side by side, each with its own data, and close() frees the port", async () => {
    const a = await start();
    const b = await start();
    expect(a.url).not.toBe(b.url);
    const intent = await api(a, "POST", "/v1/payment_intents", { amount: 1000 });
    expect((await api(b, "GET", `/v1/payment_intents/${intent.body.id}`)).status).toBe(404);
    expect((await callApi(b.url, a.secretKey, "GET", "/v1/payment_intents")).status).toBe(401);

    const port = Number(new URL(a.url).port);
    await a.close();
    await a.close(); // a second close is harmless
    expect(await canListenOn(port)).toBe(true);
    // A new paysim can take the freed port, and the other instance carries on.
    const again = await start({ port });
    expect(again.url).toBe(a.url);
    expect((await api(b, "GET", "/v1/payment_intents")).status).toBe(200);
  });

  it("moves its clock by a duration or seconds and resolves after due payout moves", async () => {
    const paysim = await start();
    const payout = await api(paysim, "POST", "/v1/payouts", { amount: 500, currency: "EUR", destination_type: "card", destination_token: "tok_card_visa" });
    const before = paysim.clock.now();
    expect(before).toBeInstanceOf(Date);

    const after = await paysim.clock.advance("6h");
    expect(after.getTime() - before.getTime()).toBeGreaterThanOrEqual(6 * 3_600_000);
    expect(paysim.clock.now().getTime()).toBeGreaterThanOrEqual(after.getTime());
    expect((await api(paysim, "GET", `/v1/payouts/${payout.body.id}`)).body.status).toBe("succeeded");

    const clock = await api(paysim, "GET", "/v1/sandbox/clock");
    await paysim.clock.advance(30);
    expect((await api(paysim, "GET", "/v1/sandbox/clock")).body.offset_seconds - clock.body.offset_seconds).toBe(30);
  });

  it("refuses a duration without a unit, changing nothing", async () => {
    const paysim = await start();
    const before = (await api(paysim, "GET", "/v1/sandbox/clock")).body.offset_seconds;
    await expect(paysim.clock.advance("6")).rejects.toThrow(InvalidDurationError);
    await expect(paysim.clock.advance(0)).rejects.toThrow(/at least 1 second/);
    expect((await api(paysim, "GET", "/v1/sandbox/clock")).body.offset_seconds).toBe(before);
  });

  it("leaves payouts alone with payouts: manual", async () => {
    const paysim = await start({ payouts: "manual" });
    const payout = await api(paysim, "POST", "/v1/payouts", { amount: 500, currency: "EUR", destination_type: "card", destination_token: "tok_card_visa" });
    await paysim.clock.advance("1d");
    expect((await api(paysim, "GET", `/v1/payouts/${payout.body.id}`)).body.status).toBe("pending");
  });

  it("writes the database where db says", async () => {
    const dir = useTempDir();
    await start({ db: join(dir, "it.db") });
    expect(existsSync(join(dir, "it.db"))).toBe(true);
  });

  it("prints nothing and writes no file (run from the built package in an empty folder)", async () => {
    const dir = useTempDir("paysim-quiet-");
    const script = `
      import { startPaysim } from ${JSON.stringify(DIST_INDEX)};
      const paysim = await startPaysim();
      const headers = { Authorization: "Bearer " + paysim.secretKey, "Content-Type": "application/json", "Idempotency-Key": "quiet-1" };
      const created = await fetch(paysim.url + "/v1/payment_intents", { method: "POST", headers, body: JSON.stringify({ amount: 1000 }) });
      if (created.status !== 201) process.exit(3);
      await paysim.clock.advance("1h");
      await paysim.close();`;
    const result = await new Promise<{ code: number | null; out: string }>((resolve, reject) => {
      const child = spawn(process.execPath, ["--input-type=module", "-e", script], { cwd: dir, stdio: ["ignore", "pipe", "pipe"] });
      let out = "";
      child.stdout.on("data", (chunk) => (out += chunk));
      child.stderr.on("data", (chunk) => (out += chunk));
      child.on("error", reject);
      child.on("close", (code) => resolve({ code, out }));
    });
    expect(result).toEqual({ code: 0, out: "" });
    expect(readdirSync(dir)).toEqual([]);
  });
});

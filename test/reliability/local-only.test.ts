import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { StartedPaysim } from "../helpers/cli.js";
import { suiteScope, usePaysim, usePaysimCli, useTempDir } from "../helpers/disposables.js";
import { rawRequest, type RawResponse } from "../helpers/http.js";
import { callApi, createIntent, clientFor, freshKey, type TestPaysim } from "../helpers/paysim.js";

// The child-process tests run the real binary (dist/): run `npm run build` first.

/**
 * Local-only by default (docs/api.md), beyond what test/server (Host guard 403) and
 * test/cli/start (the 0.0.0.0 warning, instance.json 0600) already show.
 */

const ORIGIN = "http://evil.example";
const accessControlHeaders = (response: RawResponse) => Object.keys(response.headers).filter((name) => name.toLowerCase().startsWith("access-control-"));
const mode = (path: string) => statSync(path).mode & 0o777;

const folder = () => useTempDir("paysim-local-");
const serving = (args: string[], cwd: string): Promise<StartedPaysim> => usePaysimCli(["--no-ui", ...args], { cwd });

describe("no CORS: a page on another origin gets no permission to read any answer", () => {
  const thisSuite = suiteScope();
  let paysim: TestPaysim;
  let intentId: string;
  beforeAll(async () => {
    paysim = await usePaysim({}, thisSuite);
    intentId = (await createIntent(paysim)).id;
  });

  it.each([
    ["/v1/payment_intents", "POST"],
    ["/v1/payouts", "POST"],
    ["/v1/sandbox/clock/advance", "POST"],
    ["/v1/events", "GET"],
    ["/health", "GET"],
    ["/checkout/ID", "POST"],
  ])("answers an OPTIONS preflight with an Origin for %s (%s) without any Access-Control-* header, and does not approve it", async (path, requestedMethod) => {
    const response = await rawRequest(paysim.url, {
      method: "OPTIONS",
      path: path.replace("ID", intentId),
      headers: {
        Origin: ORIGIN,
        "Access-Control-Request-Method": requestedMethod,
        "Access-Control-Request-Headers": "authorization, content-type, idempotency-key",
      },
    });
    expect(accessControlHeaders(response)).toEqual([]);
    expect(response.status).toBeGreaterThanOrEqual(400);
  });

  it("sends no Access-Control-* header on successes, errors or pages, whatever the Origin", async () => {
    const key = { Authorization: `Bearer ${paysim.secretKey}`, Origin: ORIGIN };
    const responses = [
      await rawRequest(paysim.url, {
        method: "POST",
        path: "/v1/payment_intents",
        headers: { ...key, "Content-Type": "application/json", "Idempotency-Key": freshKey() },
        body: '{"amount":1000}',
      }),
      await rawRequest(paysim.url, { method: "GET", path: `/v1/payment_intents/${intentId}`, headers: key }),
      await rawRequest(paysim.url, { method: "GET", path: "/v1/payment_intents", headers: { Origin: ORIGIN } }),
      await rawRequest(paysim.url, { method: "GET", path: "/v1/nope", headers: key }),
      await rawRequest(paysim.url, {
        method: "POST",
        path: "/v1/payment_intents",
        headers: { ...key, "Content-Type": "application/json", "Idempotency-Key": freshKey() },
        body: "{",
      }),
      await rawRequest(paysim.url, { method: "GET", path: "/health", headers: { Origin: "null" } }),
      await rawRequest(paysim.url, { method: "GET", path: `/checkout/${intentId}`, headers: { Origin: ORIGIN } }),
    ];
    expect(responses.map((r) => r.status).slice(0, 6)).toEqual([201, 200, 401, 404, 400, 200]);
    for (const response of responses) expect(accessControlHeaders(response)).toEqual([]);
  });
});

describe("the listening address", () => {
  it("is 127.0.0.1 only by default: another loopback address (127.0.0.2) is refused", async () => {
    const { url } = await serving(["--db", ":memory:"], folder());
    const port = new URL(url).port;
    expect((await rawRequest(url, { method: "GET", path: "/health" })).status).toBe(200);
    await expect(rawRequest(`http://127.0.0.2:${port}`, { method: "GET", path: "/health" })).rejects.toMatchObject({ code: "ECONNREFUSED" });
  });

  it("with --host 0.0.0.0 warns, is reachable on every address, and serves requests whose Host is not loopback (the guard is off)", async () => {
    const { cli, url, key } = await serving(["--db", ":memory:", "--host", "0.0.0.0"], folder());
    await cli.waitFor(/warning +listening on 0\.0\.0\.0: this sandbox is reachable from the network/);
    const port = new URL(url).port;
    const elsewhere = `http://127.0.0.2:${port}`;
    expect((await rawRequest(elsewhere, { method: "GET", path: "/health", headers: { Host: `192.168.1.20:${port}` } })).status).toBe(200);
    const listed = await rawRequest(url, { method: "GET", path: "/v1/payment_intents", headers: { Host: "paysim.example", Authorization: `Bearer ${key}` } });
    expect(listed.status).toBe(200);
    expect(listed.body.object).toBe("list");
  });
});

describe("files that hold keys or secrets", () => {
  it("are 0600 even under a permissive umask: the database, its -wal (no -shm is made) and instance.json, while running and after a kill and restart", async () => {
    const dir = folder();
    const db = join(dir, "paysim.db");
    const files = [db, `${db}-wal`, join(dir, "instance.json")];
    const previous = process.umask(0o000);
    let first: StartedPaysim;
    try {
      first = await serving(["--db", db, "--forward-to", "http://127.0.0.1:9/hooks"], dir);
    } finally {
      process.umask(previous);
    }
    await createIntent(clientFor(first.url, first.key));
    expect(files.map(mode)).toEqual([0o600, 0o600, 0o600]);
    expect(existsSync(`${db}-shm`)).toBe(false);

    expect((await first.cli.stop("SIGKILL")).signal).toBe("SIGKILL");
    process.umask(0o000);
    let second: StartedPaysim;
    try {
      second = await serving(["--db", db], dir);
    } finally {
      process.umask(previous);
    }
    expect((await callApi(second.url, second.key, "GET", "/v1/payment_intents")).body.data).toHaveLength(1);
    expect(files.map(mode)).toEqual([0o600, 0o600, 0o600]);
    expect(existsSync(`${db}-shm`)).toBe(false);
  });
});

import { describe, expect, it } from "vitest";
import type { RequestLogged } from "../../../src/bus.js";
import { loggedPath, MAX_DECODING_ROUNDS } from "../../../src/server/middleware/request-log.js";
import { usePaysimApp } from "../../helpers/disposables.js";
import { manualTimers } from "../../helpers/manual-timers.js";
import { signedIn } from "../dashboard/helpers.js";

describe("the path a request's log line shows", () => {
  it.each([
    ["/v1/payment_intents", "/v1/payment_intents"],
    ["/v1/payment_intents/4242424242424242", "/v1/payment_intents/************4242"],
    ["/dashboard", "/dashboard"],
    ["/dashboard/login", "/dashboard/login"],
    ["/dashboard/login/Ab12Cd34Ef56Gh78Ij90Kl12", "/dashboard/login/…"],
    ["/dashboard/lfIUpGkZPCFTcR26UwAc4k/events", "/dashboard/…/events"],
    ["/dashboard/lfIUpGkZPCFTcR26UwAc4k/events/evt_1", "/dashboard/…/events/evt_1"],
    ["/dashboard//lfIUpGkZPCFTcR26UwAc4k/events", "/dashboard//…/events"],
    ["/dashboard///lfIUpGkZPCFTcR26UwAc4k", "/dashboard///…"],
    ["//dashboard/lfIUpGkZPCFTcR26UwAc4k/events", "//dashboard/…/events"],
    ["/DASHBOARD/lfIUpGkZPCFTcR26UwAc4k/events", "/DASHBOARD/…/events"],
    ["/dashboard/login//Ab12Cd34Ef56Gh78Ij90Kl12", "/dashboard/login//…"],
    ["/dashboard//login/Ab12Cd34Ef56Gh78Ij90Kl12", "/dashboard//login/…"],
    ["/checkout/pi_1", "/checkout/pi_1"],
    // Percent-encoded, however often (issue 46 item 6): the secret's own characters replaced, the rest as sent.
    ["/dashboard%2FlfIUpGkZPCFTcR26UwAc4k/events", "/dashboard%2F…/events"],
    ["/dashboard%2flfIUpGkZPCFTcR26UwAc4k/events", "/dashboard%2f…/events"],
    ["/dashboard%252FlfIUpGkZPCFTcR26UwAc4k/events", "/dashboard%252F…/events"],
    ["/dashboard%2525252FlfIUpGkZPCFTcR26UwAc4k/events", "/dashboard%2525252F…/events"],
    ["/dashboard%5ClfIUpGkZPCFTcR26UwAc4k/events", "/dashboard%5C…/events"],
    ["/dashboard\\lfIUpGkZPCFTcR26UwAc4k/events", "/dashboard\\…/events"],
    ["/dashboard%2F%2FlfIUpGkZPCFTcR26UwAc4k%2Fevents", "/dashboard%2F%2F…%2Fevents"],
    ["/%64ashboard/lfIUpGkZPCFTcR26UwAc4k/events", "/%64ashboard/…/events"],
    ["/%2564%2541SHBOARD%252FlfIUpGkZPCFTcR26UwAc4k/events", "/%2564%2541SHBOARD%252F…/events"],
    ["/dashboard/%6CfIUpGkZPCFTcR26UwAc4k/events", "/dashboard/…/events"],
    ["/dashboard%2Flogin%2FAb12Cd34Ef56Gh78Ij90Kl12", "/dashboard%2Flogin%2F…"],
    ["/dashboard/%6Cogin/Ab12Cd34Ef56Gh78Ij90Kl12", "/dashboard/%6Cogin/…"],
    ["/x/dashboard.html%2FlfIUpGkZPCFTcR26UwAc4k", "/x/dashboard.html%2F…"],
    ["/v1/payment_intents/4242%204242%204242%204242", "/v1/payment_intents/****%20****%20****%204242"],
    ["/v1/payment_intents/pi_%41", "/v1/payment_intents/pi_%41"],
  ])("%s is logged as %s", (path, logged) => {
    expect(loggedPath(path)).toBe(logged);
  });

  it(`decodes escapes nested ${MAX_DECODING_ROUNDS} deep, and logs a path nested deeper as "/…" whole`, () => {
    const nested = (depth: number) => `%${"25".repeat(depth - 1)}2F`;
    expect(loggedPath(`/dashboard${nested(MAX_DECODING_ROUNDS)}lfIUpGkZPCFTcR26UwAc4k/events`)).toBe(`/dashboard${nested(MAX_DECODING_ROUNDS)}…/events`);
    expect(loggedPath(`/dashboard${nested(MAX_DECODING_ROUNDS + 1)}lfIUpGkZPCFTcR26UwAc4k/events`)).toBe("/…");
    expect(loggedPath(`/v1/payment_intents/${nested(8000)}`)).toBe("/…");
  });

  it("never carries a dashboard sign-in token or session base onto the bus", async () => {
    const paysim = await usePaysimApp();
    const lines: RequestLogged[] = [];
    paysim.bus.on("request.logged", (line) => lines.push(line));
    const link = new URL(paysim.dashboardLoginUrl());
    await paysim.app.request(link.pathname, { headers: { Host: link.host } });
    expect(lines.map((line) => line.path)).toEqual(["/dashboard/login/…"]);
  });

  it("never carries a session's base onto the bus, however the page's path is spelt", async () => {
    const paysim = await usePaysimApp();
    const client = await signedIn(paysim);
    const scope = client.base!.split("/")[2]!;
    const lines: RequestLogged[] = [];
    paysim.bus.on("request.logged", (line) => lines.push(line));
    const paths = [
      `/dashboard//${scope}/events`,
      `/dashboard///${scope}/events`,
      `//dashboard/${scope}/events`,
      `/dashboard/${scope}//events`,
      `/dashboard%2F${scope}/events`,
      `/dashboard%2f${scope}/events`,
      `/dashboard%252F${scope}/events`,
      `/dashboard%5C${scope}/events`,
      `/%64ashboard/${scope}/events`,
    ];
    for (const path of paths) await client.get(paysim.url + path);
    expect(lines).toHaveLength(paths.length);
    for (const line of lines) expect(line.path).not.toContain(scope);
  });
});

describe("a credential in a request", () => {
  it("is never on the bus: neither the key that authorised it nor a secret_key or webhook_secret in its body, and a key in its path is masked", async () => {
    const key = "sk_test_ci_1732212345678901234";
    const secret = "whsec_ci_7302212345678901234";
    const paysim = await usePaysimApp({ secretKey: key });
    const lines: RequestLogged[] = [];
    paysim.bus.on("request.logged", (line) => lines.push(line));
    const created = await paysim.api("POST", "/v1/sandbox/instances", {
      body: { secret_key: key, webhook_secret: secret, forward_to: ["http://127.0.0.1:9/hooks"] },
      idempotencyKey: "credentials-1",
    });
    expect(created.status, created.text).toBe(201);
    expect((await paysim.api("GET", `/v1/payment_intents/${key}`)).status).toBe(404);
    await paysim.api("DELETE", `/v1/sandbox/instances/${created.body.id}`);

    expect(lines.map((line) => line.path)).toEqual(["/v1/sandbox/instances", "/v1/payment_intents/sk_test_ci_***************1234", expect.any(String)]);
    const logged = JSON.stringify(lines);
    for (const digits of ["1732212345678901", "7302212345678901"]) expect(logged).not.toContain(digits);
  });
});

describe("when a request's log line says it arrived and how long it took", () => {
  // Read from the instance's timers: with timers the test moves, the time they were moved to, nothing of the machine's.
  it("is the instance's timers' time", async () => {
    const timers = manualTimers(5_000);
    const paysim = await usePaysimApp({ timers });
    const rule = await paysim.api("POST", "/v1/sandbox/faults", {
      body: { fault: "latency", latency_ms: 300, match: { method: "GET", path: "/v1/payouts" }, times: 1 },
    });
    expect(rule.status, rule.text).toBe(201);
    const logged: RequestLogged[] = [];
    paysim.bus.on("request.logged", (request) => logged.push(request));

    const held = paysim.api("GET", "/v1/payouts");
    await timers.untilPending(1); // the answer is held
    timers.advance(300);
    expect((await held).status).toBe(200);
    expect((await paysim.api("GET", "/v1/payment_intents")).status).toBe(200);

    expect(logged.map(({ path, arrivedAtMs, durationMs }) => ({ path, arrivedAtMs, durationMs }))).toEqual([
      { path: "/v1/payouts", arrivedAtMs: 5_000, durationMs: 300 },
      { path: "/v1/payment_intents", arrivedAtMs: 5_300, durationMs: 0 },
    ]);
  });
});

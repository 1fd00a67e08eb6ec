import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { deliveryLine, eventLine, requestLine } from "../../src/cli/reporters/lines.js";
import type { DeliveryAttempted } from "../../src/bus.js";
import { RETRY_DELAYS_MS } from "../../src/domain/retry-schedule.js";
import { pressDashboardLink } from "../helpers/dashboard-link.js";
import { useCli, useDatabase, usePaysimCli, useReceiver, useTempDir } from "../helpers/disposables.js";
import { callApi, clientFor, createIntent, freshKey } from "../helpers/paysim.js";
import { resetCounts, resetCountsInWords } from "../helpers/registry.js";

const T0 = Date.parse("2026-05-01T12:00:00.000Z");

function update(status: DeliveryAttempted["status"], attempts: number, statusCode: number | null, next: number | null): DeliveryAttempted {
  return {
    deliveryId: "del_1",
    eventId: "evt_1",
    eventType: "payment_intent.created",
    eventRequestId: "req_1",
    endpointId: "we_1",
    companyId: "co_1",
    url: "http://127.0.0.1:3000/hooks",
    status,
    attempts,
    nextAttemptMs: next,
    attempt: { statusCode, error: statusCode === null ? "connection refused" : null, durationMs: 12.4 },
  };
}

describe("plain log lines", () => {
  it.each([
    [
      "a request",
      requestLine({ requestId: "req_1", method: "POST", path: "/v1/payment_intents", status: 201, durationMs: 12.34, arrivedAtMs: 0 }),
      "POST /v1/payment_intents 201 12.3ms",
    ],
    [
      "a request whose answer a fault withheld",
      requestLine({
        requestId: "req_1",
        method: "POST",
        path: "/v1/payment_intents",
        status: 201,
        durationMs: 3.04,
        arrivedAtMs: 0,
        fault: { ruleId: "flt_1", fault: "lost_response", unanswered: true },
      }),
      "POST /v1/payment_intents 201 3.0ms fault lost_response flt_1, no answer sent",
    ],
    [
      "a request a timeout fault held",
      requestLine({
        requestId: "req_1",
        method: "GET",
        path: "/v1/events",
        status: 0,
        durationMs: 200.5,
        arrivedAtMs: 0,
        fault: { ruleId: "flt_2", fault: "timeout", unanswered: true },
      }),
      "GET /v1/events — 200.5ms fault timeout flt_2, no answer sent",
    ],
    [
      "a request a fault answered",
      requestLine({
        requestId: "req_1",
        method: "GET",
        path: "/v1/events",
        status: 500,
        durationMs: 1,
        arrivedAtMs: 0,
        fault: { ruleId: "flt_3", fault: "server_error", unanswered: false },
      }),
      "GET /v1/events 500 1.0ms fault server_error flt_3",
    ],
    ["an event", eventLine({ id: "evt_1", type: "payout.created", objectId: "po_1" }), "event evt_1 payout.created po_1"],
    [
      "a failed attempt with a retry ahead",
      deliveryLine(update("pending", 1, 500, T0 + 30_000)),
      "delivery evt_1 → http://127.0.0.1:3000/hooks 500 12ms, retry 1/6 at 2026-05-01T12:00:30.000Z",
    ],
    [
      "an attempt without an answer",
      deliveryLine(update("pending", 2, null, T0 + 120_000)),
      "delivery evt_1 → http://127.0.0.1:3000/hooks connection refused 12ms, retry 2/6 at 2026-05-01T12:02:00.000Z",
    ],
    ["a delivered attempt", deliveryLine(update("succeeded", 3, 200, null)), "delivery evt_1 → http://127.0.0.1:3000/hooks 200 12ms, delivered"],
    [
      "a duplicate that chaos sent",
      deliveryLine({ ...update("succeeded", 1, 200, null), attempt: { statusCode: 200, error: null, durationMs: 12.4, chaos: "duplicate" } }),
      "delivery evt_1 → http://127.0.0.1:3000/hooks 200 12ms (chaos: duplicate), delivered",
    ],
    [
      "the last failed attempt",
      deliveryLine(update("failed", 7, 500, null)),
      "delivery evt_1 → http://127.0.0.1:3000/hooks 500 12ms, gave up after 7 attempts",
    ],
    [
      "an attempt to a deleted endpoint",
      deliveryLine(update("failed", 2, 500, null)),
      "delivery evt_1 → http://127.0.0.1:3000/hooks 500 12ms, stopped after 2 attempts (endpoint deleted)",
    ],
  ])("%s", (_name, line, expected) => {
    expect(line).toBe(expected);
  });
});

const folder = () => useTempDir("paysim-reporters-");

const ISO = String.raw`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z`;

describe("paysim start outside a TTY", () => {
  it("prints the banner, then a line per request, event and delivery attempt, through retries to delivered and to given up", async () => {
    const receiver = await useReceiver(500);
    const started = await usePaysimCli(["--no-ui", "--db", ":memory:", "--forward-to", receiver.url], { cwd: folder() });
    const { cli, url, key } = started;
    const advance = (seconds: number) => callApi(url, key, "POST", "/v1/sandbox/clock/advance", { body: { seconds } });

    const intent = await createIntent(clientFor(url, key));
    const [, eventId] = await cli.waitFor(new RegExp(`^event (evt_\\w+) payment_intent\\.created ${intent.id}$`, "m"));
    const deliveryTo = (tail: string) => new RegExp(`^delivery ${eventId} → ${receiver.url} ${tail}$`, "m");
    await cli.waitFor(deliveryTo(`500 \\d+ms, retry 1/6 at ${ISO}`));
    await advance(30);
    await cli.waitFor(deliveryTo(`500 \\d+ms, retry 2/6 at ${ISO}`));
    receiver.respondWith(200);
    await advance(120);
    await cli.waitFor(deliveryTo("200 \\d+ms, delivered"));

    receiver.respondWith(500);
    const second = await createIntent(clientFor(url, key));
    const [, secondEventId] = await cli.waitFor(new RegExp(`^event (evt_\\w+) payment_intent\\.created ${second.id}$`, "m"));
    for (const [i, delay] of RETRY_DELAYS_MS.entries()) {
      await cli.waitFor(new RegExp(`^delivery ${secondEventId} → \\S+ 500 \\d+ms, retry ${i + 1}/6 at`, "m"));
      await advance(delay / 1000);
    }
    await cli.waitFor(new RegExp(`^delivery ${secondEventId} → ${receiver.url} 500 \\d+ms, gave up after 7 attempts$`, "m"));

    // Request lines keep their shape, and nothing else starts like one.
    const requestLines = cli
      .stdout()
      .split("\n")
      .filter((line) => /^[A-Z]+ \//.test(line));
    expect(requestLines.length).toBe(2 + 2 + RETRY_DELAYS_MS.length);
    for (const line of requestLines) expect(line).toMatch(/^(POST|GET) \/v1\/[\w/]+ 20[01] \d+\.\dms$/);
  });

  it("--json prints one JSON object per line: started, then request, event and delivery", async () => {
    const receiver = await useReceiver(200);
    const cli = useCli(["start", "--json", "--port", "0", "--db", ":memory:", "--forward-to", receiver.url], { cwd: folder() });
    await cli.waitFor(/^\{"type":"started".*\}$/m);
    const started = JSON.parse(cli.stdout().split("\n")[0]!);
    const url: string = started.url;
    const key: string = started.companies[0].secret_key;
    expect(started).toMatchObject({
      type: "started",
      db: ":memory:",
      companies: [{ webhook_endpoints: [{ url: receiver.url, secret: expect.stringMatching(/^whsec_/) }] }],
    });
    // The one-time dashboard sign-in link, as the banner prints it.
    expect(started.dashboard_login_url).toMatch(new RegExp(`^${url}/dashboard/login/[0-9A-Za-z]+$`));

    const intent = await createIntent(clientFor(url, key));
    await cli.waitFor(/"type":"delivery"/);
    const { code, stdout } = await cli.stop("SIGTERM");
    expect(code).toBe(0);

    const lines = stdout
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(lines[0].type).toBe("started");
    expect(
      lines
        .slice(1)
        .map((line) => line.type)
        .sort(),
    ).toEqual(["delivery", "event", "request"]);
    const [event, request, delivery] = ["event", "request", "delivery"].map((type) => lines.find((line) => line.type === type));
    expect(event).toEqual({
      type: "event",
      id: expect.stringMatching(/^evt_/),
      event_type: "payment_intent.created",
      object_id: intent.id,
      company_id: expect.stringMatching(/^co_/),
      request_id: expect.stringMatching(/^req_/),
      created_at: expect.stringMatching(new RegExp(`^${ISO}$`)),
    });
    expect(request).toMatchObject({ type: "request", method: "POST", path: "/v1/payment_intents", status: 201, request_id: event.request_id });
    expect(delivery).toMatchObject({
      type: "delivery",
      event_id: event.id,
      event_type: "payment_intent.created",
      url: receiver.url,
      attempt: 1,
      status_code: 200,
      error: null,
      chaos: null,
      status: "succeeded",
      next_attempt_at: null,
    });
  });
});

describe("paysim start --json's dashboard link", () => {
  it("signs a browser in once, like the banner's", async () => {
    const cli = useCli(["start", "--json", "--port", "0", "--db", ":memory:"], { cwd: useTempDir("paysim-cli-reporters-") });
    await cli.waitFor(/^\{"type":"started".*\}$/m);
    const { dashboard_login_url: link } = JSON.parse(cli.stdout().split("\n")[0]!);
    const first = await pressDashboardLink(link);
    expect(first.status).toBe(303);
    expect(first.headers.get("set-cookie")).toMatch(/HttpOnly/i);
    expect((await pressDashboardLink(link)).status).toBe(403);
  });
});

describe("paysim start --no-ui and --json on a sandbox reset", () => {
  it("--no-ui prints what the reset deleted, naming the company", async () => {
    const { cli, url, key } = await usePaysimCli(["--no-ui", "--db", ":memory:"], { cwd: useTempDir("paysim-cli-reporters-") });
    await createIntent(clientFor(url, key));
    const reset = await callApi(url, key, "POST", "/v1/sandbox/reset");
    expect(reset.status).toBe(200);
    await cli.waitFor(new RegExp(`^sandbox reset \\(company co_\\w+\\): ${resetCountsInWords({ payment_intents: 1, events: 1 })} deleted$`, "m"));
  });

  it("--json prints a reset object with the company and the counts", async () => {
    const cli = useCli(["start", "--json", "--port", "0", "--db", ":memory:"], { cwd: useTempDir("paysim-cli-reporters-") });
    await cli.waitFor(/^\{"type":"started".*\}$/m);
    const started = JSON.parse(cli.stdout().split("\n")[0]!);
    const key: string = started.companies[0].secret_key;
    await createIntent(clientFor(started.url, key));
    expect((await callApi(started.url, key, "POST", "/v1/sandbox/reset")).status).toBe(200);
    await cli.waitFor(/"type":"reset"/);
    const line = cli
      .stdout()
      .split("\n")
      .find((text) => text.includes('"type":"reset"'))!;
    expect(JSON.parse(line)).toEqual({ type: "reset", company_id: expect.stringMatching(/^co_/), deleted: resetCounts({ payment_intents: 1, events: 1 }) });
  });
});

/**
 * A database holding a payout to tok_card_fail whose move to failed is due (its clock is a day
 * on from the payout), as if paysim had been down meanwhile: the move runs during the next start.
 */
async function databaseWithAMoveDue(dir: string): Promise<{ dbPath: string; payoutId: string }> {
  const dbPath = join(dir, "paysim.db");
  // The clock runs a thousand times slower than real time: the move cannot fall due during this run.
  const { cli, url, key } = await usePaysimCli(["--no-ui", "--db", dbPath, "--time-scale", "0.001"], { cwd: dir });
  const created = await callApi(url, key, "POST", "/v1/payouts", {
    body: { amount: 5000, currency: "EUR", destination_type: "card", destination_token: "tok_card_fail" },
    idempotencyKey: freshKey(),
  });
  expect(created.status).toBe(201);
  expect((await cli.stop("SIGTERM")).code).toBe(0);
  const raw = useDatabase(dbPath);
  const offset = Number(raw.prepare("SELECT value FROM meta WHERE key = 'clock_offset_ms'").pluck().get());
  raw.prepare("UPDATE meta SET value = ? WHERE key = 'clock_offset_ms'").run(String(offset + 86_400_000));
  raw.close();
  return { dbPath, payoutId: (created.body as { id: string }).id };
}

describe("paysim start --no-ui and --json after time passed while it was down", () => {
  it("--no-ui prints the banner, then the events the start itself announced, then what follows", async () => {
    const dir = folder();
    const { dbPath, payoutId } = await databaseWithAMoveDue(dir);
    const { cli, url, key } = await usePaysimCli(["--no-ui", "--db", dbPath], { cwd: dir });
    expect((await callApi(url, key, "GET", "/v1/payouts")).status).toBe(200);
    await cli.waitFor(/^GET \/v1\/payouts 200 /m);

    const lines = cli.stdout().split("\n");
    const failed = lines.findIndex((line) => new RegExp(`^event evt_\\w+ payout\\.failed ${payoutId}$`).test(line));
    const listening = lines.findIndex((line) => line.includes("listening on"));
    const request = lines.findIndex((line) => line.startsWith("GET /v1/payouts 200 "));
    expect(listening).toBeGreaterThanOrEqual(0);
    expect(failed).toBeGreaterThan(listening);
    expect(request).toBeGreaterThan(failed);
  });

  it("--json prints the started object, then the events the start itself announced, then what follows", async () => {
    const dir = folder();
    const { dbPath, payoutId } = await databaseWithAMoveDue(dir);
    const cli = useCli(["start", "--json", "--port", "0", "--db", dbPath], { cwd: dir });
    await cli.waitFor(/^\{"type":"started".*\}$/m);
    const started = JSON.parse(cli.stdout().split("\n")[0]!);
    expect((await callApi(started.url, started.companies[0].secret_key, "GET", "/v1/payouts")).status).toBe(200);
    await cli.waitFor(/"type":"request"/);

    const lines = cli
      .stdout()
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(lines[0].type).toBe("started");
    const failed = lines.findIndex((line) => line.type === "event" && line.event_type === "payout.failed" && line.object_id === payoutId);
    const request = lines.findIndex((line) => line.type === "request" && line.path === "/v1/payouts");
    expect(failed).toBeGreaterThan(0);
    expect(request).toBeGreaterThan(failed);
  });
});

import fc from "fast-check";
import { connect } from "node:net";
import { beforeAll, describe, expect, it } from "vitest";
import type { RequestLogged } from "../../src/bus.js";
import { buildRequest, sendRaw, type SocketResponse } from "../helpers/raw-socket.js";
import { suiteScope, usePaysim } from "../helpers/disposables.js";
import { freshKey, type TestPaysim } from "../helpers/paysim.js";

const thisFile = suiteScope();
let paysim: TestPaysim;
let knownIntent: string;
let knownPayout: string;
beforeAll(async () => {
  paysim = await usePaysim({ onInternalError: (requestId, error) => internalErrors.push(`${requestId}: ${String(error)}`) }, thisFile);
  knownIntent = (await paysim.api("POST", "/v1/payment_intents", { body: { amount: 100 }, idempotencyKey: freshKey() })).body.id;
  knownPayout = (
    await paysim.api("POST", "/v1/payouts", {
      body: { amount: 100, currency: "EUR", destination_type: "card", destination_token: "tok_card_visa" },
      idempotencyKey: freshKey(),
    })
  ).body.id;
});
const internalErrors: string[] = [];

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "PROPFIND", "PURGE"];
const SEGMENTS = [
  "v1",
  "payment_intents",
  "payouts",
  "events",
  "webhook_endpoints",
  "sandbox",
  "clock",
  "advance",
  "transition",
  "authorize",
  "capture",
  "cancel",
  "resend",
  "webhook_ingest",
  "checkout",
  "health",
  "..",
  "%00",
  "%ff%fe",
  "%E2%82%AC",
  "4242424242424242",
  "pi_",
  "' OR 1=1 --",
  "<script>",
  "a".repeat(300),
  "",
  "?limit=0",
  "?limit=abc&state=x",
  "?starting_after=zz",
];

const path = fc.oneof(
  fc.array(fc.constantFrom(...SEGMENTS, "ID_PI", "ID_PO"), { minLength: 1, maxLength: 6 }).map((parts) => `/${parts.join("/")}`),
  fc.constantFrom("/v1/payment_intents", "/v1/payouts", "/v1/sandbox/webhook_ingest", "/v1/webhook_endpoints", "/v1/sandbox/clock/advance"),
  fc.string({ unit: fc.constantFrom(..."/v1abc%?&=._-~!$'()*+,;:@"), maxLength: 60 }).map((s) => `/${s}`),
);

const body = fc.oneof(
  fc.constant(undefined),
  fc.uint8Array({ maxLength: 200 }).map((bytes) => Buffer.from(bytes)), // invalid UTF-8 and binary junk
  fc.jsonValue({ maxDepth: 4 }).map((value) => Buffer.from(JSON.stringify(value) ?? "null")),
  fc
    .record(
      {
        amount: fc.oneof(fc.integer(), fc.double(), fc.string(), fc.constant(null), fc.boolean()),
        currency: fc.oneof(fc.constantFrom("EUR", "eur", "XXX", ""), fc.string()),
        description: fc.oneof(fc.string(), fc.constant("card 4242 4242 4242 4242")),
        destination_type: fc.constantFrom("card", "wallet", "x"),
        destination_token: fc.constantFrom("tok_card_visa", "4242424242424242", "tok_x"),
        to: fc.constantFrom("processing", "succeeded", "reversed", "nope"),
        seconds: fc.oneof(fc.integer({ min: -5, max: 40_000_000 }), fc.string()),
        type: fc.constantFrom("payout.failed", "nope"),
        data: fc.jsonValue({ maxDepth: 2 }),
        url: fc.constantFrom("http://127.0.0.1:9/x", "ftp://x", "not a url"),
      },
      { requiredKeys: [] },
    )
    .map((value) => Buffer.from(JSON.stringify(value))),
  fc.integer({ min: 30, max: 200 }).map((depth) => Buffer.from("[".repeat(depth) + "]".repeat(depth))),
  fc.integer({ min: 30, max: 200 }).map((depth) => Buffer.from('{"a":'.repeat(depth) + "1" + "}".repeat(depth))),
  fc.constant(Buffer.alloc(70 * 1024, "a")),
);

const headers = fc.record(
  {
    "Content-Type": fc.constantFrom(
      "application/json",
      "application/json; charset=utf-8",
      "text/plain",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=x",
      "APPLICATION/JSON",
      "",
    ),
    Authorization: fc.constantFrom("KEY", "Bearer sk_test_nope", "Basic abc", "Bearer", "bearer KEY", ""),
    "Idempotency-Key": fc.oneof(
      fc.string({ maxLength: 40 }).map((s) => s.replace(/[\r\n]/g, "")),
      fc.constant("k".repeat(300)),
      fc.constant("é€"),
    ),
    Origin: fc.constantFrom("http://evil.example", "null"),
  },
  { requiredKeys: [] },
);

function checkAnswer(response: SocketResponse, method: string, request: string): void {
  const where = `${request} → ${response.status} ${response.body.toString("utf8").slice(0, 300)}`;
  expect(response.status, where).toBeLessThan(500);
  expect(response.headers["request-id"], where).toMatch(/^req_[0-9A-Za-z]{24}$/);
  if (method === "HEAD") return;
  const type = response.headers["content-type"] ?? "";
  if (type.startsWith("application/json")) {
    const parsed = JSON.parse(response.body.toString("utf8"));
    expect(parsed.request_id, where).toMatch(/^req_/);
    if (response.status >= 400) {
      expect(typeof parsed.error.code, where).toBe("string");
      expect(typeof parsed.error.message, where).toBe("string");
      expect(parsed.error.message, where).not.toMatch(/\n\s+at /);
    }
  } else {
    // Only the checkout pages answer HTML.
    expect(type, where).toMatch(/^text\/html/);
  }
  expect(response.body.toString("latin1"), where).not.toContain("4242424242424242");
}

describe("hostile HTTP input", () => {
  it("answers thousands of random and malformed requests without a 500 or a broken error shape, then still serves", async () => {
    const samples = fc.sample(fc.tuple(fc.constantFrom(...METHODS), path, headers, body), { numRuns: 2500, seed: 20261121 });
    const batch = 25;
    for (let i = 0; i < samples.length; i += batch) {
      await Promise.all(
        samples.slice(i, i + batch).map(async ([method, rawPath, rawHeaders, rawBody]) => {
          const finalPath = rawPath.replace("ID_PI", knownIntent).replace("ID_PO", knownPayout);
          const sent: Record<string, string> = {};
          for (const [name, value] of Object.entries(rawHeaders)) sent[name] = value.replace("KEY", paysim.secretKey);
          const request = buildRequest(method, finalPath, sent, rawBody);
          const response = await sendRaw(paysim.port, request);
          checkAnswer(response, method, `${method} ${finalPath} ${JSON.stringify(sent)}`);
        }),
      );
    }
    expect(internalErrors).toEqual([]);
    const after = await paysim.api("POST", "/v1/payment_intents", { body: { amount: 4200 }, idempotencyKey: freshKey() });
    expect(after.status).toBe(201);
    expect(paysim.store.db.pragma("integrity_check", { simple: true })).toBe("ok");
  });

  it("answers a body that is longer than its Content-Length, or cut short, without hanging or failing", async () => {
    const key = paysim.secretKey;
    const lying = Buffer.from(
      `POST /v1/payment_intents HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nIdempotency-Key: lie-1\r\nContent-Length: 5\r\n\r\n{"amount": 100}`,
    );
    const answer = await sendRaw(paysim.port, lying);
    // Node's parser refuses the bytes past the declared length before paysim answers.
    expect(answer.status).toBe(400);
    const created = await paysim.api("GET", "/v1/payment_intents?limit=100");
    expect(created.body.data.map((pi: any) => pi.amount)).not.toContain(100_000);
    const cut = Buffer.from(
      `POST /v1/payment_intents HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nIdempotency-Key: cut-1\r\nContent-Length: 500\r\n\r\n{"amount": 100}`,
    );
    // The client half-closes after sending less than announced: the request fails without an answer or an error inside paysim.
    await sendRaw(paysim.port, cut).catch(() => undefined);
    expect(internalErrors).toEqual([]);
    expect((await paysim.api("GET", "/health", { key: null })).status).toBe(200);
  });

  it("settles a request whose client vanished mid-body, instead of leaving it pending", async () => {
    const logged = new Promise<RequestLogged>((resolve) => {
      const onLogged = (request: RequestLogged) => {
        if (request.method !== "POST" || request.path !== "/v1/payment_intents") return;
        paysim.bus.off("request.logged", onLogged);
        resolve(request);
      };
      paysim.bus.on("request.logged", onLogged);
    });
    const socket = connect(paysim.port, "127.0.0.1");
    socket.on("error", () => undefined);
    const head = `POST /v1/payment_intents HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${paysim.secretKey}\r\nContent-Type: application/json\r\nIdempotency-Key: ${freshKey()}\r\nContent-Length: 500\r\n\r\n{"amount"`;
    // Headers and part of the body, then the connection is gone: the body can never complete.
    socket.write(head, () => socket.destroy());
    const request = await logged;
    expect(request.status).toBe(400);
    expect(internalErrors).toEqual([]);
  });
});

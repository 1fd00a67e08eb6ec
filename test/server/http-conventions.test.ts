import { beforeAll, describe, expect, it } from "vitest";
import { suiteScope, usePaysim } from "../helpers/disposables.js";
import { expectApiError } from "../helpers/errors.js";
import { rawRequest } from "../helpers/http.js";
import { buildRequest, sendRaw } from "../helpers/raw-socket.js";
import { freshKey, type TestPaysim } from "../helpers/paysim.js";

const thisFile = suiteScope();
let paysim: TestPaysim;
beforeAll(async () => {
  paysim = await usePaysim({}, thisFile);
});

/** A creation through node:http with the key and a fresh Idempotency-Key, the rest as given. */
const createRaw = (body: string | Buffer | undefined, headers: Record<string, string | number> = {}, chunked = false) =>
  rawRequest(paysim.url, {
    method: "POST",
    path: "/v1/payment_intents",
    headers: { Authorization: `Bearer ${paysim.secretKey}`, "Idempotency-Key": freshKey(), ...headers },
    body,
    chunked,
  });

const STACK_LINE = /\bat .+\(|\n\s+at /;

describe("request bodies", () => {
  it.each([
    ["malformed JSON", '{"amount": 1000', "application/json", /not valid JSON/],
    ["a trailing comma", '{"amount": 1000,}', "application/json", /not valid JSON/],
    ["a JSON array", "[1000]", "application/json", /JSON object/],
    ["a JSON string", '"1000"', "application/json", /JSON object/],
    ["a JSON number", "1000", "application/json", /JSON object/],
    ["JSON null", "null", "application/json", /JSON object/],
    ["a form body", "amount=1000&currency=EUR", "application/x-www-form-urlencoded", /Content-Type: application\/json/],
    ["text/plain", '{"amount": 1000}', "text/plain", /Content-Type: application\/json/],
    ["multipart", "--x\r\n\r\n--x--", "multipart/form-data; boundary=x", /Content-Type: application\/json/],
    ["JSON-looking type that is not JSON", '{"amount": 1000}', "application/jsonx", /Content-Type: application\/json/],
  ])("refuses %s with 400 invalid_request and creates nothing", async (_name, body, contentType, message) => {
    const before = (await paysim.api("GET", "/v1/payment_intents?limit=1")).body.data[0]?.id;
    const response = await createRaw(body, { "Content-Type": contentType });
    expectApiError(response, 400, "invalid_request");
    expect(response.body.error.message).toMatch(message);
    expect(response.body.error.param).toBeUndefined();
    expect((await paysim.api("GET", "/v1/payment_intents?limit=1")).body.data[0]?.id).toBe(before);
  });

  it("refuses a body sent without any Content-Type", async () => {
    const response = await createRaw('{"amount": 1000}');
    expectApiError(response, 400, "invalid_request");
  });

  it("refuses a body that is not UTF-8", async () => {
    const response = await createRaw(Buffer.from([0x7b, 0x22, 0x61, 0xff, 0xfe, 0x22, 0x7d]), { "Content-Type": "application/json" });
    expectApiError(response, 400, "invalid_request");
    expect(response.body.error.message).toMatch(/UTF-8/);
  });

  it("decodes each body on its own: a body cut inside a character does not spoil the next one", async () => {
    // 0xc3 opens a two-byte character that never ends; a decoder that kept it would prefix the next body.
    expectApiError(await createRaw(Buffer.from([0x7b, 0x7d, 0xc3]), { "Content-Type": "application/json" }), 400, "invalid_request");
    const next = await createRaw('{"amount": 1000, "description": "é"}', { "Content-Type": "application/json" });
    expect(next.status).toBe(201);
    expect(next.body.description).toBe("é");
  });

  it("refuses a body nested deeper than 32 levels", async () => {
    const deep = `{"amount": 1, "description": ${"[".repeat(40)}${"]".repeat(40)}}`;
    const response = await createRaw(deep, { "Content-Type": "application/json" });
    expectApiError(response, 400, "invalid_request");
    expect(response.body.error.message).toMatch(/nested/);
  });

  it("accepts application/json with a charset, in any case", async () => {
    const response = await createRaw('{"amount": 1000}', { "Content-Type": "Application/JSON; charset=utf-8" });
    expect(response.status).toBe(201);
  });

  const hundredKiB = JSON.stringify({ amount: 1000, description: "x".repeat(100 * 1024) });

  it("refuses a 100 KiB body sent with Content-Length: 413 payload_too_large", async () => {
    const response = await createRaw(hundredKiB, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(hundredKiB) });
    expectApiError(response, 413, "payload_too_large");
  });

  it("refuses a 100 KiB body sent chunked without Content-Length: 413 payload_too_large", async () => {
    const response = await createRaw(hundredKiB, { "Content-Type": "application/json" }, true);
    expectApiError(response, 413, "payload_too_large");
  });

  it("draws the size line at 64 KiB: 65536 bytes are read (then validated), 65537 are refused", async () => {
    const fill = (size: number) => {
      const head = '{"amount": 1000, "description": "';
      return `${head}${"y".repeat(size - head.length - 2)}"}`;
    };
    expect(Buffer.byteLength(fill(65536))).toBe(65536);
    const atLimit = await createRaw(fill(65536), { "Content-Type": "application/json" });
    expectApiError(atLimit, 400, "invalid_request", "description");
    const over = await createRaw(fill(65537), { "Content-Type": "application/json" }, true);
    expectApiError(over, 413, "payload_too_large");
  });

  it("refuses a Content-Length that claims more than 64 KiB before reading the body", async () => {
    const body = '{"amount": 1000}';
    // Claims a large body but sends only a little: the answer must come without waiting for the rest.
    const response = await rawRequest(paysim.url, {
      method: "POST",
      path: "/v1/payment_intents",
      headers: {
        Authorization: `Bearer ${paysim.secretKey}`,
        "Idempotency-Key": freshKey(),
        "Content-Type": "application/json",
        "Content-Length": 1_000_000,
      },
      body,
    });
    expectApiError(response, 413, "payload_too_large");
  });
});

describe("a client that half-closes its side right after its request", () => {
  // sendRaw ends its side of the connection as soon as the request is written.
  it("still gets the answer to a creation, which waits for its group commit", async () => {
    const body = Buffer.from('{"amount": 1000}');
    const headers = { Authorization: `Bearer ${paysim.secretKey}`, "Content-Type": "application/json", "Idempotency-Key": freshKey() };
    const response = await sendRaw(paysim.port, buildRequest("POST", "/v1/payment_intents", headers, body));
    expect(response.status).toBe(201);
    expect(JSON.parse(response.body.toString("utf8")).amount).toBe(1000);
  });

  it("still gets the answer to a read", async () => {
    const response = await sendRaw(paysim.port, buildRequest("GET", "/v1/payment_intents?limit=1", { Authorization: `Bearer ${paysim.secretKey}` }));
    expect(response.status).toBe(200);
    expect(JSON.parse(response.body.toString("utf8")).object).toBe("list");
  });
});

describe("the Host header (DNS-rebinding defence)", () => {
  it.each(["evil.example", "evil.example:80", "127.0.0.1.evil.example", "localhost.evil.example", "[::2]", "0.0.0.0", "10.0.0.1"])(
    "refuses Host %s with 403 forbidden, before the key is even checked",
    async (host) => {
      const noKey = await rawRequest(paysim.url, { method: "GET", path: "/v1/payment_intents", headers: { Host: host } });
      expectApiError(noKey, 403, "forbidden");
      const withKey = await rawRequest(paysim.url, {
        method: "GET",
        path: "/v1/payment_intents",
        headers: { Host: host, Authorization: `Bearer ${paysim.secretKey}` },
      });
      expectApiError(withKey, 403, "forbidden");
    },
  );

  it("refuses a foreign Host on /health too", async () => {
    expectApiError(await rawRequest(paysim.url, { method: "GET", path: "/health", headers: { Host: "evil.example" } }), 403, "forbidden");
  });

  it.each(["localhost", "localhost:7420", "LOCALHOST:1", "127.0.0.1", "127.0.0.1:9", "[::1]", "[::1]:7420"])("serves Host %s", async (host) => {
    const response = await rawRequest(paysim.url, {
      method: "GET",
      path: "/v1/payment_intents?limit=1",
      headers: { Host: host, Authorization: `Bearer ${paysim.secretKey}` },
    });
    expect(response.status).toBe(200);
  });
});

describe("every response", () => {
  it("carries request_id in the body equal to its Request-Id header, errors and successes alike", async () => {
    const key = { Authorization: `Bearer ${paysim.secretKey}` };
    const created = await createRaw('{"amount": 1000}', { "Content-Type": "application/json" });
    const responses = [
      created,
      await rawRequest(paysim.url, { method: "GET", path: `/v1/payment_intents/${created.body.id}`, headers: key }),
      await rawRequest(paysim.url, { method: "POST", path: `/v1/payment_intents/${created.body.id}/cancel`, headers: key }),
      await rawRequest(paysim.url, { method: "GET", path: "/v1/payment_intents", headers: key }),
      await rawRequest(paysim.url, { method: "GET", path: "/v1/events", headers: key }),
      await rawRequest(paysim.url, { method: "GET", path: "/v1/sandbox/clock", headers: key }),
      await rawRequest(paysim.url, { method: "GET", path: "/health" }),
      await rawRequest(paysim.url, { method: "GET", path: "/v1/payment_intents" }),
      await rawRequest(paysim.url, { method: "GET", path: "/v1/payment_intents", headers: { Host: "evil.example" } }),
      await rawRequest(paysim.url, { method: "GET", path: "/v1/nope", headers: key }),
      await rawRequest(paysim.url, { method: "DELETE", path: "/v1/payment_intents", headers: key }),
      await createRaw("nope", { "Content-Type": "application/json" }),
      await createRaw("x".repeat(70_000), { "Content-Type": "application/json" }),
      await createRaw('{"amount": 0}', { "Content-Type": "application/json" }),
      await rawRequest(paysim.url, { method: "POST", path: `/v1/payment_intents/${created.body.id}/capture`, headers: key }),
    ];
    const requestIds = new Set<string>();
    for (const response of responses) {
      expect(response.body.request_id, response.text).toMatch(/^req_[0-9A-Za-z]{24}$/);
      expect(response.headers["request-id"], response.text).toBe(response.body.request_id);
      requestIds.add(response.body.request_id);
    }
    expect(requestIds.size).toBe(responses.length);
  });

  it("never contains stack trace lines in an error body", async () => {
    const key = { Authorization: `Bearer ${paysim.secretKey}` };
    const errors = [
      await createRaw("{", { "Content-Type": "application/json" }),
      await createRaw('{"amount": "x"}', { "Content-Type": "application/json" }),
      await rawRequest(paysim.url, { method: "GET", path: "/v1/payment_intents/pi_x", headers: key }),
      await rawRequest(paysim.url, { method: "GET", path: "/v1/payment_intents?limit=0", headers: key }),
      await rawRequest(paysim.url, { method: "GET", path: "/v1/nope", headers: key }),
    ];
    for (const response of errors) {
      expect(response.status).toBeGreaterThanOrEqual(400);
      expect(response.text).not.toMatch(STACK_LINE);
      expect(Object.keys(response.body).sort()).toEqual(["error", "request_id"]);
    }
  });

  it("sends no CORS headers, even to a request with an Origin", async () => {
    const response = await rawRequest(paysim.url, {
      method: "GET",
      path: "/v1/payment_intents",
      headers: { Authorization: `Bearer ${paysim.secretKey}`, Origin: "http://evil.example" },
    });
    expect(response.status).toBe(200);
    expect(Object.keys(response.headers).filter((h) => h.startsWith("access-control-"))).toEqual([]);
  });
});

describe("an unexpected failure inside paysim", () => {
  it("answers 500 internal_error naming the request id, with no internals, and reports the error with that id", async () => {
    const reported: { requestId: string; error: unknown }[] = [];
    const broken = await usePaysim({ onInternalError: (requestId, error) => reported.push({ requestId, error }) });
    // Closing the database under the running server makes every store call throw.
    broken.store.db.close();
    const response = await broken.api("GET", "/v1/payment_intents");
    expectApiError(response, 500, "internal_error");
    expect(response.body.error.message).toContain(response.body.request_id);
    expect(response.text).not.toMatch(STACK_LINE);
    expect(response.text).not.toMatch(/sqlite|database|TypeError/i);
    expect(reported.map((r) => r.requestId)).toEqual([response.body.request_id]);
    expect(reported[0]!.error).toBeInstanceOf(Error);
  });
});

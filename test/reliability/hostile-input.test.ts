import { beforeAll, describe, expect, it } from "vitest";
import { suiteScope, usePaysim } from "../helpers/disposables.js";
import { expectApiError } from "../helpers/errors.js";
import { buildRequest, sendRaw, type SocketResponse } from "../helpers/raw-socket.js";
import { createIntent, freshKey, newestEventId, type TestPaysim } from "../helpers/paysim.js";

/**
 * Issue 17, items 5, 6 and 9: hostile or ambiguous input at the HTTP boundary.
 * Each test sends the attack as a client would and checks both the answer and
 * that nothing was created.
 */

const thisFile = suiteScope();
let paysim: TestPaysim;
let port: number;
beforeAll(async () => {
  paysim = await usePaysim({}, thisFile);
  port = Number(new URL(paysim.url).port);
});

const INGEST_DATA = '"reference":"PAY-HOSTILE001","amount":2500,"currency":"EUR"';

/** Sends `raw` as a JSON body (text exactly as given: JSON.stringify cannot write an own "__proto__"). */
const postRaw = (path: string, raw: string, idempotencyKey = freshKey()) => paysim.api("POST", path, { raw, contentType: "application/json", idempotencyKey });

/** Runs `attack` and fails unless it left the company's events (so every creation and move) unchanged. */
async function changesNothing(attack: () => Promise<unknown>): Promise<void> {
  const before = await newestEventId(paysim);
  await attack();
  expect(await newestEventId(paysim)).toBe(before);
}

const bodyOf = (response: SocketResponse) => JSON.parse(response.body.toString("utf8"));
const asApiError = (response: SocketResponse) => ({ status: response.status, body: bodyOf(response), headers: response.headers });

describe("item 5: no body key reaches a prototype", () => {
  it.each([
    ["a body that is only __proto__", '{"__proto__":{"amount":100,"capture_method":"manual"}}', "__proto__"],
    ["__proto__ beside valid fields", '{"amount":1000,"__proto__":{"capture_method":"manual"}}', "__proto__"],
    ["constructor", '{"amount":1000,"constructor":{"prototype":{"amount":5}}}', "constructor"],
    ["prototype", '{"amount":1000,"prototype":{"amount":5}}', "prototype"],
  ])("creating a payment intent with %s is refused as an unknown field and creates nothing", async (_name, raw, param) => {
    await changesNothing(async () => {
      const response = await postRaw("/v1/payment_intents", raw);
      expectApiError(response, 400, "invalid_request", param);
      expect(response.body.error.message).toBe(`Unknown field "${param}": remove it or check its spelling.`);
    });
    expect(({} as Record<string, unknown>).amount).toBeUndefined();
  });

  it("refuses __proto__ on a payout and on a clock advance, which stays where it was", async () => {
    await changesNothing(async () => {
      const payout = await postRaw(
        "/v1/payouts",
        '{"__proto__":{"amount":100,"currency":"EUR","destination_type":"card","destination_token":"tok_card_visa"}}',
      );
      expectApiError(payout, 400, "invalid_request", "__proto__");
    });
    const before = (await paysim.api("GET", "/v1/sandbox/clock")).body.offset_seconds;
    const advance = await postRaw("/v1/sandbox/clock/advance", '{"__proto__":{"seconds":60}}');
    expectApiError(advance, 400, "invalid_request", "__proto__");
    expect((await paysim.api("GET", "/v1/sandbox/clock")).body.offset_seconds).toBe(before);
  });

  it.each(["__proto__", "constructor"])("a query parameter named %s is refused as an unknown one", async (name) => {
    const response = await paysim.api("GET", `/v1/payment_intents?${name}=x&limit=5`);
    expectApiError(response, 400, "invalid_request", name);
  });

  it("two bodies that differ only in a __proto__ field are two different requests for one Idempotency-Key", async () => {
    const key = freshKey();
    expect((await postRaw("/v1/payment_intents", '{"amount":1000}', key)).status).toBe(201);
    const conflict = await postRaw("/v1/payment_intents", '{"amount":1000,"__proto__":{"amount":1000}}', key);
    expectApiError(conflict, 409, "idempotency_conflict", "Idempotency-Key");
  });

  it.each([
    ["at the top of data", `{"type":"payout.failed","data":{${INGEST_DATA},"__proto__":{"id":"po_smuggled"}}}`, "data.__proto__"],
    ["deep inside data", `{"type":"payout.failed","data":{${INGEST_DATA},"meta":{"list":[{"__proto__":{"x":1}}]}}}`, "data.meta.list.0.__proto__"],
    [
      "standing in for data's required fields",
      '{"type":"payout.failed","data":{"__proto__":{"reference":"PAY-HOSTILE001","amount":2500,"currency":"EUR"}}}',
      "data.__proto__",
    ],
  ])("ingest refuses __proto__ %s (data is free-form, but not that name) and records no event", async (_name, raw, param) => {
    await changesNothing(async () => {
      const response = await postRaw("/v1/sandbox/webhook_ingest", raw);
      expectApiError(response, 400, "invalid_request", param);
      expect(response.body.error.message).toMatch(/__proto__/);
    });
  });

  it("ingest keeps constructor and prototype inside data as ordinary fields, the same in the answer, GET and the list", async () => {
    const response = await postRaw("/v1/sandbox/webhook_ingest", `{"type":"payout.failed","data":{${INGEST_DATA},"constructor":"c","prototype":{"amount":1}}}`);
    expect(response.status, response.text).toBe(201);
    expect(response.body.data).toEqual({ reference: "PAY-HOSTILE001", amount: 2500, currency: "EUR", constructor: "c", prototype: { amount: 1 } });
    const read = await paysim.api("GET", `/v1/events/${response.body.id}`);
    expect(read.body.data).toEqual(response.body.data);
  });
});

describe("item 6: ill-formed UTF-16 is refused at the body boundary", () => {
  it.each([
    ["a field's value", '{"amount":1000,"description":"a\\ud800b"}', "description", /^description holds an unpaired surrogate/],
    ["a lone low surrogate", '{"amount":1000,"description":"\\udc00"}', "description", /^description holds an unpaired surrogate/],
    ["a field's name", '{"amount":1000,"a\\ud800b":1}', "a\uFFFDb", /^The field name "a\uFFFDb" holds an unpaired surrogate/],
  ])("in %s: 400 naming the field, nothing created", async (_name, raw, param, message) => {
    await changesNothing(async () => {
      const response = await postRaw("/v1/payment_intents", raw);
      expectApiError(response, 400, "invalid_request", param);
      expect(response.body.error.message).toMatch(message);
    });
  });

  it("anywhere inside ingested data, with the path to the string", async () => {
    await changesNothing(async () => {
      const response = await postRaw("/v1/sandbox/webhook_ingest", `{"type":"payout.failed","data":{${INGEST_DATA},"note":{"lines":["ok","x\\udbff"]}}}`);
      expectApiError(response, 400, "invalid_request", "data.note.lines.1");
    });
  });

  it("a surrogate pair (an emoji, escaped or not) reads back identical from the creation answer, GET, the list and the event", async () => {
    const created = await postRaw("/v1/payment_intents", '{"amount":1000,"description":"pay \\ud83d\\ude00 and 😀"}');
    expect(created.status, created.text).toBe(201);
    const expected = "pay 😀 and 😀";
    expect(created.body.description).toBe(expected);
    expect((await paysim.api("GET", `/v1/payment_intents/${created.body.id}`)).body.description).toBe(expected);
    const event = (await paysim.api("GET", "/v1/events?limit=1")).body.data[0];
    expect(event.data.description).toBe(expected);
  });

  it("raw bytes that encode a surrogate (CESU-8) are refused as invalid UTF-8", async () => {
    const body = Buffer.concat([Buffer.from('{"amount":1000,"description":"a'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('b"}')]);
    const headers = { Authorization: `Bearer ${paysim.secretKey}`, "Content-Type": "application/json", "Idempotency-Key": freshKey() };
    await changesNothing(async () => {
      const response = await sendRaw(port, buildRequest("POST", "/v1/payment_intents", headers, body));
      expectApiError(asApiError(response), 400, "invalid_request");
      expect(bodyOf(response).error.message).toMatch(/UTF-8/);
    });
  });
});

describe("item 9: ambiguous requests are refused", () => {
  it.each([
    ["/v1/payment_intents?limit=10&limit=20", "limit"],
    ["/v1/payment_intents?state=created&limit=5&state=canceled", "state"],
    ["/v1/payment_intents?limit=10&lim%69t=20", "limit"],
    ["/v1/payouts?starting_after=a&starting_after=b", "starting_after"],
    ["/v1/events?type=payout.failed&type=payout.paid", "type"],
    ["/v1/webhook_endpoints?limit=1&limit=1", "limit"],
  ])("GET %s: 400 naming the repeated parameter", async (path, param) => {
    const response = await paysim.api("GET", path);
    expectApiError(response, 400, "invalid_request", param);
    expect(response.body.error.message).toBe(`The query parameter ${param} was given 2 times: send it once.`);
  });

  /** A creation whose head carries `extra` header lines, sent byte for byte. */
  const creationWith = (extra: string[]) => {
    const body = '{"amount":1000}';
    const head = [
      "POST /v1/payment_intents HTTP/1.1",
      "Host: 127.0.0.1",
      "Connection: close",
      `Authorization: Bearer ${paysim.secretKey}`,
      "Content-Type: application/json",
      `Content-Length: ${body.length}`,
      ...extra,
    ];
    return sendRaw(port, Buffer.from(`${head.join("\r\n")}\r\n\r\n${body}`, "latin1"));
  };

  it("two Idempotency-Key header lines: 400 on Idempotency-Key, nothing created", async () => {
    await changesNothing(async () => {
      const response = await creationWith([`Idempotency-Key: ${freshKey()}`, `idempotency-key: ${freshKey()}`]);
      expectApiError(asApiError(response), 400, "invalid_request", "Idempotency-Key");
      expect(bodyOf(response).error.message).toBe("The Idempotency-Key header was sent 2 times: send exactly one key.");
    });
  });

  it("one Idempotency-Key line whose value holds a comma is one key, and is accepted", async () => {
    const response = await creationWith([`Idempotency-Key: ${freshKey()}, second part`]);
    expect(response.status, response.body.toString()).toBe(201);
  });

  const auth = () => ({ Authorization: `Bearer ${paysim.secretKey}` });

  it.each([
    "http://evil.example/v1/payment_intents",
    "http://EVIL.EXAMPLE:80/v1/payment_intents",
    "http://127.0.0.1@evil.example/v1/payment_intents",
    "https://evil.example:443/v1/payment_intents",
  ])("an absolute-form target naming a foreign host (GET %s) is refused with 403 even with a loopback Host", async (target) => {
    const response = await sendRaw(port, buildRequest("GET", target, auth()));
    expectApiError(asApiError(response), 403, "forbidden");
  });

  it.each(["HTTP://EVIL.EXAMPLE/v1/payment_intents", "ftp://evil.example/v1/payment_intents"])(
    "an absolute-form target the HTTP server does not read as http(s) (%s) is not served",
    async (target) => {
      const response = await sendRaw(port, buildRequest("GET", target, auth()));
      expect(response.status).toBe(400);
      expect(response.body.toString("utf8")).not.toContain('"object":"list"');
    },
  );

  it("a POST with a foreign absolute-form target creates nothing", async () => {
    await changesNothing(async () => {
      const headers = { ...auth(), "Content-Type": "application/json", "Idempotency-Key": freshKey() };
      const response = await sendRaw(port, buildRequest("POST", "http://evil.example/v1/payment_intents", headers, Buffer.from('{"amount":1000}')));
      expectApiError(asApiError(response), 403, "forbidden");
    });
  });

  it.each(["http://127.0.0.1:PORT/v1/payment_intents/ID", "http://localhost/v1/payment_intents/ID", "http://[::1]:PORT/v1/payment_intents/ID"])(
    "an absolute-form target naming a loopback host (%s) is served",
    async (template) => {
      const intent = await createIntent(paysim);
      const target = template.replace("PORT", String(port)).replace("ID", intent.id);
      const response = await sendRaw(port, buildRequest("GET", target, auth()));
      expect(response.status).toBe(200);
      expect(bodyOf(response).id).toBe(intent.id);
    },
  );

  it('clock advance with {"seconds":"60"} says what is wrong with it, and the clock stays', async () => {
    const before = (await paysim.api("GET", "/v1/sandbox/clock")).body.offset_seconds;
    const response = await paysim.api("POST", "/v1/sandbox/clock/advance", { body: { seconds: "60" } });
    expectApiError(response, 400, "invalid_request", "seconds");
    expect(response.body.error.message).toBe("seconds must be an integer from 1 to 31536000 (got a string).");
    expect((await paysim.api("GET", "/v1/sandbox/clock")).body.offset_seconds).toBe(before);
  });
});

describe("item 9: a field of the wrong JSON type is named as such, never as missing", () => {
  const PAYOUT = { amount: 100, currency: "EUR", destination_type: "card", destination_token: "tok_card_visa" };
  const INGEST = { type: "payout.failed", data: { reference: "PAY-HOSTILE001", amount: 2500, currency: "EUR" } };
  let payoutId: string;
  let intentId: string;
  beforeAll(async () => {
    payoutId = (await paysim.api("POST", "/v1/payouts", { body: PAYOUT, idempotencyKey: freshKey() })).body.id;
    intentId = (await createIntent(paysim)).id;
  });

  it.each([
    ["/v1/sandbox/clock/advance", { seconds: null }, "seconds", "null"],
    ["/v1/sandbox/clock/advance", { seconds: [60] }, "seconds", "an array"],
    ["/v1/payment_intents", { amount: "1000" }, "amount", "a string"],
    ["/v1/payment_intents", { amount: 1000, currency: 978 }, "currency", "a number"],
    ["/v1/payment_intents", { amount: 1000, description: { text: "x" } }, "description", "an object"],
    ["/v1/payment_intents", { amount: 1000, capture_method: true }, "capture_method", "a boolean"],
    ["/v1/payment_intents/INTENT/authorize", { payment_method: 4242 }, "payment_method", "a number"],
    ["/v1/payouts", { ...PAYOUT, destination_type: 1 }, "destination_type", "a number"],
    ["/v1/payouts", { ...PAYOUT, destination_token: null }, "destination_token", "null"],
    ["/v1/webhook_endpoints", { url: 5 }, "url", "a number"],
    ["/v1/webhook_endpoints", { url: "http://127.0.0.1:9/x", enabled_events: "*" }, "enabled_events", "a string"],
    ["/v1/sandbox/payouts/PAYOUT/transition", { to: 5 }, "to", "a number"],
    ["/v1/sandbox/payouts/PAYOUT/transition", { to: "processing", amount: "5" }, "amount", "a string"],
    ["/v1/sandbox/webhook_ingest", { ...INGEST, type: ["payout.failed"] }, "type", "an array"],
    ["/v1/sandbox/webhook_ingest", { ...INGEST, data: "x" }, "data", "a string"],
    ["/v1/sandbox/webhook_ingest", { ...INGEST, data: { ...INGEST.data, reference: 5 } }, "data.reference", "a number"],
  ])("POST %s %j: 400 on %s, saying it got %s", async (path, body, param, got) => {
    const response = await paysim.api("POST", path.replace("INTENT", intentId).replace("PAYOUT", payoutId), { body, idempotencyKey: freshKey() });
    expectApiError(response, 400, "invalid_request", param);
    expect(response.body.error.message).not.toMatch(/required/);
    expect(response.body.error.message).toContain(`(got ${got})`);
  });
});

describe("item 5: the checkout form reads no field from a prototype", () => {
  const tokenOf = (html: string) => /name="token" value="([^"]+)"/.exec(html)![1]!;
  const post = async (intentId: string, fields: [string, string][]) => {
    const token = tokenOf(await (await fetch(`${paysim.url}/checkout/${intentId}`)).text());
    const form = new URLSearchParams([["token", token], ...fields]);
    return fetch(`${paysim.url}/checkout/${intentId}/pay`, { method: "POST", body: form, redirect: "manual" });
  };

  it("fields named __proto__, constructor and prototype are plain unknown form fields: the card alone decides", async () => {
    const refused = await createIntent(paysim);
    const noCard = await post(refused.id, [
      ["__proto__", "x"],
      ["constructor", "4242424242424242"],
      ["prototype", "123"],
    ]);
    expect(noCard.status).toBe(422);
    expect((await paysim.api("GET", `/v1/payment_intents/${refused.id}`)).body.state).toBe("created");

    const paid = await createIntent(paysim);
    const withCard = await post(paid.id, [
      ["__proto__", "x"],
      ["number", "4242 4242 4242 4242"],
      ["expiry", "12/34"],
      ["cvc", "123"],
    ]);
    expect(withCard.status).toBe(303);
    expect((await paysim.api("GET", `/v1/payment_intents/${paid.id}`)).body.state).not.toBe("created");
  });
});

import { describe, expect, it } from "vitest";
import { usePaysim } from "../helpers/disposables.js";
import { buildRequest, sendRaw } from "../helpers/raw-socket.js";

// Node keeps the first of a repeated Host, Authorization or Content-Type and drops the others;
// paysim refuses the request instead, as it already refused a repeated Idempotency-Key.
describe("a header sent twice", () => {
  it.each([
    ["Host", "GET /v1/payment_intents HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil.example\r\nAuthorization: Bearer KEY\r\n", 400, "invalid_request"],
    [
      "Authorization",
      "GET /v1/payment_intents HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer KEY\r\nAuthorization: Bearer sk_test_other\r\n",
      401,
      "unauthorized",
    ],
    [
      "Content-Type",
      'POST /v1/payment_intents HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer KEY\r\nIdempotency-Key: twice-1\r\nContent-Type: application/json\r\nContent-Type: text/plain\r\nContent-Length: 15\r\n\r\n{"amount": 100}',
      400,
      "invalid_request",
    ],
  ])("%s is refused, naming it, and nothing is done", async (name, request, status, code) => {
    const paysim = await usePaysim();
    const raw = request.replaceAll("KEY", paysim.secretKey);
    const bytes = Buffer.from(raw.includes("\r\n\r\n") ? raw.replace("\r\n\r\n", "\r\nConnection: close\r\n\r\n") : `${raw}Connection: close\r\n\r\n`);
    const answer = await sendRaw(paysim.port, bytes);
    expect(answer.status).toBe(status);
    expect(JSON.parse(answer.body.toString("utf8")).error).toEqual({
      code,
      message: `The ${name} header was sent 2 times: send it exactly once.`,
      param: name,
    });
    const listed = await paysim.api("GET", "/v1/payment_intents");
    expect(listed.body.data).toEqual([]);
  });

  it("once each, the same request is served", async () => {
    const paysim = await usePaysim();
    const answer = await sendRaw(
      paysim.port,
      buildRequest(
        "POST",
        "/v1/payment_intents",
        { Authorization: `Bearer ${paysim.secretKey}`, "Content-Type": "application/json", "Idempotency-Key": "once-1" },
        Buffer.from('{"amount": 100}'),
      ),
    );
    expect(answer.status).toBe(201);
  });
});

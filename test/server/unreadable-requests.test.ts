import { describe, expect, it } from "vitest";
import { usePaysim } from "../helpers/disposables.js";
import { sendRaw } from "../helpers/raw-socket.js";

// Requests Node's HTTP parser, or the listener after it, cannot read: paysim's app never sees
// them, yet the client still gets the API's error shape. The 70 KiB body still on its way when the
// answer is written must not turn the answer into a connection reset (it did on Node.js 24).
const BODY = Buffer.alloc(70 * 1024, "a");
const head = (requestLine: string, extra = "") =>
  Buffer.from(`${requestLine}\r\nHost: 127.0.0.1\r\nConnection: close\r\n${extra}Content-Length: ${BODY.length}\r\n\r\n`);

describe("a request paysim cannot read as HTTP", () => {
  it.each([
    ["a target with spaces", "PATCH /' OR 1=1 --/events HTTP/1.1", 400],
    ["an absolute target with an upper-case scheme", "GET HTTP://127.0.0.1/v1/events HTTP/1.1", 400],
    ["the asterisk target", "OPTIONS * HTTP/1.1", 400],
    ["headers over 16 KiB", "GET /v1/events HTTP/1.1", 431],
  ])("%s: answered in the error shape with a request id, body and all", async (_name, requestLine, status) => {
    const paysim = await usePaysim();
    const extra = status === 431 ? `X-Big: ${"b".repeat(20 * 1024)}\r\n` : "";
    const answer = await sendRaw(paysim.port, Buffer.concat([head(requestLine, extra), BODY]));
    expect(answer.status).toBe(status);
    expect(answer.headers["content-type"]).toBe("application/json; charset=utf-8");
    const body = JSON.parse(answer.body.toString("utf8"));
    expect(body).toEqual({
      error: { code: "invalid_request", message: expect.stringMatching(/^The request/) },
      request_id: expect.stringMatching(/^req_[0-9A-Za-z]{24}$/),
    });
    expect(answer.headers["request-id"]).toBe(body.request_id);
    // And paysim goes on serving.
    expect((await paysim.api("GET", "/health", { key: null })).status).toBe(200);
  });
});

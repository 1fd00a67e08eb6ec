import { beforeAll, describe, expect, it } from "vitest";
import type { RequestLogged } from "../../src/bus.js";
import { suiteScope, usePaysimApp, useTempPath } from "../helpers/disposables.js";
import { expectApiError } from "../helpers/errors.js";
import { freshKey, type TestPaysim } from "../helpers/paysim.js";

/**
 * The instance's Hono app called with `app.request()`, no socket: what the app
 * itself guarantees, without server/node-adapter.ts's Node paths.
 */
const thisFile = suiteScope();
let paysim: TestPaysim;
beforeAll(async () => {
  paysim = await usePaysimApp({ db: useTempPath("paysim.db", "paysim-test-", thisFile) }, thisFile);
});

const auth = () => ({ Authorization: `Bearer ${paysim.secretKey}` });

/** The request.logged entries announced while `call` runs. */
async function logged(call: () => Promise<unknown>): Promise<RequestLogged[]> {
  const entries: RequestLogged[] = [];
  const listener = (entry: RequestLogged) => entries.push(entry);
  paysim.bus.on("request.logged", listener);
  try {
    await call();
  } finally {
    paysim.bus.off("request.logged", listener);
  }
  return entries;
}

describe("app.request()", () => {
  it("answers with the same request id in the Request-Id header and the body, and logs it", async () => {
    let response!: Response;
    const entries = await logged(async () => {
      response = await paysim.app.request("/health");
    });
    const body = (await response.json()) as { status: string; request_id: string };
    expect(response.status).toBe(200);
    expect(body.status).toBe("ok");
    expect(body.request_id).toMatch(/^req_/);
    expect(response.headers.get("Request-Id")).toBe(body.request_id);
    expect(entries).toEqual([expect.objectContaining({ requestId: body.request_id, method: "GET", path: "/health", status: 200 })]);
  });

  it("logs errors too, their path masked, with the id the error body names", async () => {
    let response!: Response;
    const entries = await logged(async () => {
      response = await paysim.app.request("/v1/payment_intents/4242424242424242", { headers: auth() });
    });
    const body = (await response.json()) as { error: { code: string }; request_id: string };
    expect(response.status).toBe(404);
    expect(body.error.code).toBe("not_found");
    expect(response.headers.get("Request-Id")).toBe(body.request_id);
    expect(entries).toHaveLength(1);
    expect(entries[0]!.requestId).toBe(body.request_id);
    expect(entries[0]!.status).toBe(404);
    expect(entries[0]!.path).not.toContain("4242424242424242");
    expect(entries[0]!.path).toContain("4242");
  });

  it("answers /health with the process's pid only to a caller naming the instance's token", async () => {
    const token = "5f".repeat(16);
    const started = await usePaysimApp({ instanceToken: token });
    const health = async (headers: Record<string, string> = {}) => {
      const { request_id: _, ...body } = (await (await started.app.request("/health", { headers })).json()) as Record<string, unknown>;
      return body;
    };
    expect(await health({ "Paysim-Instance-Token": token })).toEqual({ status: "ok", version: expect.any(String), pid: process.pid });
    for (const headers of [{}, { "Paysim-Instance-Token": "5f".repeat(15) + "5e" }, { "Paysim-Instance-Token": "é".repeat(16) }] as Record<string, string>[])
      expect(await health(headers)).toEqual({ status: "ok", version: expect.any(String) });
    // An instance started without a token (startPaysim(), the instances it starts) never answers it.
    expect(Object.keys(await health({ "Paysim-Instance-Token": "" }))).toEqual(["status", "version"]);
    expect(Object.keys((await (await paysim.app.request("/health", { headers: { "Paysim-Instance-Token": token } })).json()) as object)).toEqual([
      "status",
      "version",
      "request_id",
    ]);
  });

  it("holds an answer until the group commit open while it was made is durable", async () => {
    let committed = false;
    const unit = paysim.store.unit(() => paysim.store.meta.set("app-request-test", "written"));
    void unit.committed.then(() => (committed = true));
    const response = await paysim.app.request("/health");
    expect(response.status).toBe(200);
    expect(committed).toBe(true);
  });

  it("answers a creation once it is durable: no group commit is left open", async () => {
    const response = await paysim.app.request("/v1/payment_intents", {
      method: "POST",
      headers: { ...auth(), "Content-Type": "application/json", "Idempotency-Key": freshKey() },
      body: JSON.stringify({ amount: 1234 }),
    });
    expect(response.status).toBe(201);
    expect(paysim.store.whenOpenGroupDurable()).toBeUndefined();
  });

  it("refuses a body over 64 KiB with 413, whatever Content-Length says (the body is read through hono/body-limit)", async () => {
    const stream = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(JSON.stringify({ amount: 1, description: "z".repeat(70 * 1024) })));
        controller.close();
      },
    });
    const response = await paysim.app.request("/v1/payment_intents", {
      method: "POST",
      headers: { ...auth(), "Content-Type": "application/json", "Idempotency-Key": freshKey() },
      body: stream,
      duplex: "half",
    } as RequestInit);
    expectApiError({ status: response.status, headers: response.headers, body: await response.json() }, 413, "payload_too_large");
  });

  it("takes the URL's authority as the Host: a loopback name is served, another is refused with 403", async () => {
    expect((await paysim.app.request("http://127.0.0.1/health")).status).toBe(200);
    const refused = await paysim.app.request("http://evil.example/health");
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("forbidden");
  });
});

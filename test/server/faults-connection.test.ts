import { connect } from "node:net";
import { describe, expect, it } from "vitest";
import { usePaysim } from "../helpers/disposables.js";
import { freshKey, type TestPaysim, creationRows } from "../helpers/paysim.js";
import { manualTimers } from "../helpers/manual-timers.js";
import { exchange, until } from "../helpers/unanswered.js";

// The faults that leave the client without an answer need a real socket to close.

async function addFault(paysim: TestPaysim, rule: object) {
  const response = await paysim.api("POST", "/v1/sandbox/faults", { body: rule });
  expect(response.status, response.text).toBe(201);
  return response.body;
}

/** A raw creation request with this Idempotency-Key (kept alive: only a fault may close it). */
function creation(paysim: TestPaysim, idempotencyKey: string): Buffer {
  const body = Buffer.from(JSON.stringify({ amount: 1000 }));
  const head = [
    "POST /v1/payment_intents HTTP/1.1",
    "Host: 127.0.0.1",
    `Authorization: Bearer ${paysim.secretKey}`,
    "Content-Type: application/json",
    `Idempotency-Key: ${idempotencyKey}`,
    `Content-Length: ${body.length}`,
  ];
  return Buffer.concat([Buffer.from(`${head.join("\r\n")}\r\n\r\n`), body]);
}

describe("lost_response", () => {
  it("commits the object, its event and its idempotency record, then closes the connection with no answer", async () => {
    const paysim = await usePaysim();
    const rule = await addFault(paysim, { fault: "lost_response", match: { method: "POST", path: "/v1/payment_intents" } });
    const logged: any[] = [];
    paysim.bus.on("request.logged", (request) => logged.push(request));

    const key = freshKey();
    const { received } = await exchange(paysim.port, creation(paysim, key));
    // Checked as the client sees the close: nothing is left uncommitted.
    const committed = { inTransaction: paysim.store.db.inTransaction, ...creationRows(paysim) };
    expect(received.toString("latin1")).toBe("");
    expect(committed).toEqual({ inTransaction: false, payment_intents: 1, events: 1, idempotency_keys: 1 });
    expect(logged).toMatchObject([
      { method: "POST", path: "/v1/payment_intents", status: 201, fault: { ruleId: rule.id, fault: "lost_response", unanswered: true } },
    ]);

    // The retry with the same key gets the replay of what was made.
    const intents = (await paysim.api("GET", "/v1/payment_intents")).body.data;
    expect(intents).toHaveLength(1);
    const replay = await paysim.api("POST", "/v1/payment_intents", { body: { amount: 1000 }, idempotencyKey: key });
    expect(replay.status).toBe(201);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.body.id).toBe(intents[0].id);
    expect((await paysim.api("GET", "/v1/events")).body.data.map((event: any) => event.type)).toEqual(["payment_intent.created"]);

    // A retry with another key is another payment.
    const other = await paysim.api("POST", "/v1/payment_intents", { body: { amount: 1000 }, idempotencyKey: freshKey() });
    expect(other.status).toBe(201);
    expect(other.body.id).not.toBe(intents[0].id);
    expect(creationRows(paysim)).toEqual({ payment_intents: 2, events: 2, idempotency_keys: 2 });
  });

  it("makes fetch fail, as a lost connection does", async () => {
    const paysim = await usePaysim();
    await addFault(paysim, { fault: "lost_response" });
    await expect(paysim.api("GET", "/v1/payment_intents")).rejects.toThrow(/fetch failed/);
    expect((await paysim.api("GET", "/v1/payment_intents")).status).toBe(200);
  });
});

describe("timeout", () => {
  it("holds the connection for latency_ms, then closes it with no answer, having done nothing", async () => {
    const timers = manualTimers();
    const paysim = await usePaysim({ timers });
    const rule = await addFault(paysim, { fault: "timeout", latency_ms: 200, match: { path: "/v1/payment_intents" } });
    const before = creationRows(paysim);
    const logged: any[] = [];
    paysim.bus.on("request.logged", (request) => logged.push(request));

    let closed = false;
    const pending = exchange(paysim.port, creation(paysim, freshKey())).finally(() => (closed = true));
    await until(async () => (await paysim.api("GET", "/v1/sandbox/faults")).body.data.length === 0, "the request reached paysim");
    // A millisecond short of latency_ms, the connection is still held: a request made now is answered first.
    timers.advance(199);
    expect((await paysim.api("GET", "/v1/payment_intents")).status).toBe(200);
    expect(closed).toBe(false);
    expect(logged.filter((request) => request.fault)).toEqual([]);
    timers.advance(1);
    const { received } = await pending;
    expect(received.toString("latin1")).toBe("");
    expect(creationRows(paysim)).toEqual(before);
    expect(logged.filter((request) => request.fault)).toMatchObject([{ status: 0, fault: { ruleId: rule.id, fault: "timeout", unanswered: true } }]);
  });

  it("lets go of a client that resets its connection first", async () => {
    const paysim = await usePaysim();
    await addFault(paysim, { fault: "timeout", latency_ms: 60_000 });
    const logged = new Promise<any>((resolve) => paysim.bus.on("request.logged", (request) => request.fault && resolve(request)));
    const socket = connect(paysim.port, "127.0.0.1");
    socket.on("error", () => {});
    socket.write(creation(paysim, freshKey()));
    await until(async () => (await paysim.api("GET", "/v1/sandbox/faults")).body.data.length === 0, "the request reached paysim");
    socket.resetAndDestroy();
    // The hold ends with the connection, not after a minute (longer than the test may take).
    expect(await logged).toMatchObject({ status: 0, fault: { fault: "timeout", unanswered: true } });
  });
});

describe("latency", () => {
  it("answers correctly, after the request is done and the wait is over", async () => {
    const timers = manualTimers();
    const paysim = await usePaysim({ timers });
    const rule = await addFault(paysim, { fault: "latency", latency_ms: 300, match: { method: "POST" } });
    const created = new Promise<any>((resolve) => paysim.bus.once("event.created", resolve));
    let answered = false;
    const call = paysim.api("POST", "/v1/payment_intents", { body: { amount: 1000 }, idempotencyKey: freshKey() }).then((response) => {
      answered = true;
      return response;
    });
    const event = await created;
    // The intent is made before the wait starts; nothing else here sets a timer.
    await timers.untilPending(1); // the answer is held
    timers.advance(299);
    // The intent exists, and a request made after it is answered while the first still waits.
    const read = await paysim.api("GET", `/v1/payment_intents/${event.objectId}`);
    expect(read.status).toBe(200);
    expect(answered).toBe(false);
    timers.advance(1);
    const response = await call;
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ id: event.objectId, object: "payment_intent", amount: 1000 });
    expect((await paysim.api("GET", "/v1/sandbox/faults")).body.data).toEqual([]);
    expect(rule.latency_ms).toBe(300);
  });
});

describe("stopping with a request held", () => {
  it.each(["timeout", "latency"] as const)("close() does not wait for a %s: the held connection closes with no answer", async (fault) => {
    const paysim = await usePaysim();
    await addFault(paysim, { fault, latency_ms: 60_000 });
    const pending = exchange(paysim.port, creation(paysim, freshKey()));
    await until(async () => (await paysim.api("GET", "/v1/sandbox/faults")).body.data.length === 0, "the request reached paysim");
    await paysim.close();
    expect((await pending).received.toString("latin1")).toBe("");
  });
});

// The waits over HTTP (GET /v1/sandbox/events/wait, /v1/sandbox/webhooks/wait), on a real port.
import { connect } from "node:net";
import { describe, expect, it } from "vitest";
import { EVENT_TYPES } from "../../src/domain/events.js";
import { usePaysim, useReceiver } from "../helpers/disposables.js";
import { createIntent, freshKey, type TestPaysim } from "../helpers/paysim.js";
import { expectApiError } from "../helpers/errors.js";
import { until } from "../helpers/unanswered.js";
import { advance, createEndpoint, useFrozenPaysim } from "../webhooks/support.js";

const KEY_A = "sk_test_waits_company_a";
const KEY_B = "sk_test_waits_company_b";

/** The bus listeners a wait adds, and the waits running: both must come back once a wait is over. */
const footprint = (paysim: TestPaysim) => ({
  running: paysim.waits.running(),
  listeners: (["event.created", "delivery.attempted", "deliveries.stopped"] as const).map((name) => paysim.bus.listenerCount(name)),
});

/** Resolves once `n` waits are held inside paysim. */
const held = (paysim: TestPaysim, n = 1) => until(() => paysim.waits.running() === n, `${n} wait(s) are held`);

describe("GET /v1/sandbox/events/wait", () => {
  it("resolves with an event created after the call, as GET /v1/events/:id shows it, and leaves nothing behind", async () => {
    const paysim = await usePaysim();
    const idle = footprint(paysim);
    const waiting = paysim.api("GET", "/v1/sandbox/events/wait?type=payout.created,payment_intent.created&timeout_ms=20000");
    await held(paysim);
    expect(footprint(paysim)).not.toEqual(idle);
    const intent = await createIntent(paysim);
    const answer = await waiting;
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.data.id).toBe(intent.id);
    const shown = await paysim.api("GET", `/v1/events/${answer.body.id}`);
    expect(answer.body).toEqual(shown.body);
    // The body's request_id is the one that created the event; the header names the wait.
    expect(answer.headers.get("request-id")).not.toBe(answer.body.request_id);
    expect(footprint(paysim)).toEqual(idle);
  });

  it("holds many waits on one bus listener, and one event answers them all", async () => {
    const paysim = await usePaysim();
    const idle = paysim.bus.listenerCount("event.created");
    const waiting = Array.from({ length: 20 }, () => paysim.api("GET", "/v1/sandbox/events/wait?type=payment_intent.created&timeout_ms=20000"));
    await held(paysim, 20);
    expect(paysim.bus.listenerCount("event.created")).toBe(idle + 1);
    const intent = await createIntent(paysim);
    const answers = await Promise.all(waiting);
    expect(answers.map((answer) => [answer.status, answer.body.data.id])).toEqual(answers.map(() => [200, intent.id]));
    expect(paysim.bus.listenerCount("event.created")).toBe(idle);
  });

  it("resolves at once with an event created before the call, the first one matching", async () => {
    const paysim = await usePaysim();
    const first = await createIntent(paysim);
    await createIntent(paysim);
    const answer = await paysim.api("GET", `/v1/sandbox/events/wait?object_id=${first.id}`);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ object: "event", type: "payment_intent.created", deliveries: [] });
    expect(answer.body.data.id).toBe(first.id);
    expect(paysim.waits.running()).toBe(0);
  });

  it("times out with 408 wait_timeout naming the filter and the last 10 events of the company", async () => {
    const paysim = await usePaysim();
    const intents = [];
    for (let i = 0; i < 12; i++) intents.push(await createIntent(paysim));
    const answer = await paysim.api("GET", `/v1/sandbox/events/wait?type=payment_intent.captured&object_id=${intents[0].id}&timeout_ms=50`);
    expect(answer.status).toBe(408);
    expect(answer.body.error.code).toBe("wait_timeout");
    expect(answer.body.error.param).toBeUndefined();
    const lines = answer.body.error.message.split("\n");
    expect(lines[0]).toBe(`No event matched {"type":"payment_intent.captured","object_id":"${intents[0].id}"} within 50 ms.`);
    expect(lines[1]).toBe("The last 10 event(s), oldest first:");
    expect(lines.slice(2)).toEqual(intents.slice(2).map((intent) => `  payment_intent.created ${intent.id}`));
    expect(paysim.waits.running()).toBe(0);
  });

  it("is not timed out by the clock: its timeout_ms is real time", async () => {
    const paysim = await usePaysim();
    const waiting = paysim.api("GET", "/v1/sandbox/events/wait?type=payment_intent.created&timeout_ms=60000");
    await held(paysim);
    const advanced = await paysim.api("POST", "/v1/sandbox/clock/advance", { body: { seconds: 86_400 } });
    expect(advanced.status).toBe(200);
    const intent = await createIntent(paysim);
    const answer = await waiting;
    expect(answer.status).toBe(200);
    expect(answer.body.data.id).toBe(intent.id);
  });

  it("sees only the caller's company, since its last reset, and lists only its events on a timeout", async () => {
    const paysim = await usePaysim({
      config: {
        companies: [
          { name: "Company A", currency: "EUR", secret_key: KEY_A, webhook_endpoints: [] },
          { name: "Company B", currency: "EUR", secret_key: KEY_B, webhook_endpoints: [] },
        ],
      },
    });
    const beforeReset = await createIntent(paysim, { amount: 100 }, KEY_A);
    expect((await paysim.api("POST", "/v1/sandbox/reset", { key: KEY_A })).status).toBe(200);
    const waiting = paysim.api("GET", "/v1/sandbox/events/wait?type=payment_intent.created&timeout_ms=20000", { key: KEY_A });
    await held(paysim);
    const ofB = await createIntent(paysim, { amount: 200 }, KEY_B);
    const ofA = await createIntent(paysim, { amount: 300 }, KEY_A);
    const answer = await waiting;
    expect(answer.body.data.id).toBe(ofA.id);
    expect([beforeReset.id, ofB.id]).not.toContain(answer.body.data.id);

    const timedOut = await paysim.api("GET", "/v1/sandbox/events/wait?type=payout.created&timeout_ms=1", { key: KEY_B });
    expect(timedOut.status).toBe(408);
    expect(timedOut.body.error.message).toContain(`payment_intent.created ${ofB.id}`);
    expect(timedOut.body.error.message).not.toContain(ofA.id);
  });

  it("ends with 503 shutting_down when paysim stops, without holding up close()", async () => {
    const paysim = await usePaysim();
    const waiting = paysim.api("GET", "/v1/sandbox/events/wait?type=payout.created&timeout_ms=60000");
    await held(paysim);
    await paysim.close();
    const answer = await waiting;
    expect(answer.status).toBe(503);
    expect(answer.body.error).toEqual({
      code: "shutting_down",
      message: "paysim is stopping: the wait ended before anything matched. Start paysim again and repeat the wait.",
    });
    expect(answer.body.request_id).toBe(answer.headers.get("request-id"));
  });

  it("ends when its client closes the connection: no wait, listener or timer stays", async () => {
    const paysim = await usePaysim();
    const idle = footprint(paysim);
    const logged = new Promise<any>((resolve) => paysim.bus.on("request.logged", (request) => request.path === "/v1/sandbox/events/wait" && resolve(request)));
    const socket = connect(paysim.port, "127.0.0.1");
    socket.write(
      `GET /v1/sandbox/events/wait?type=payout.created&timeout_ms=60000 HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${paysim.secretKey}\r\n\r\n`,
    );
    await held(paysim);
    expect(footprint(paysim)).not.toEqual(idle);
    socket.destroy();
    await until(() => paysim.waits.running() === 0, "the wait has ended");
    expect(footprint(paysim)).toEqual(idle);
    // The request is logged as unanswered (status 0), and paysim serves on.
    expect(await logged).toMatchObject({ status: 0 });
    expect((await paysim.api("GET", "/v1/sandbox/clock")).status).toBe(200);
  });

  it("is never hit by a fault rule: the sandbox paths are not faulted", async () => {
    const paysim = await usePaysim();
    expect((await paysim.api("POST", "/v1/sandbox/faults", { body: { fault: "server_error", times: 3 } })).status).toBe(201);
    const intent = await createIntent(paysim).catch(() => undefined);
    expect(intent).toBeUndefined();
    const answer = await paysim.api("GET", "/v1/sandbox/events/wait?timeout_ms=1");
    expect(answer.status).toBe(408);
  });

  it.each([
    ["type=payment_intent.nope", "type", 'type "payment_intent.nope" is not an event type; give one type or a comma-separated list of: '],
    ["type=payment_intent.created,", "type", "type has an empty entry"],
    ["timeout_ms=0", "timeout_ms", 'timeout_ms must be an integer from 1 to 60000; got "0".'],
    ["timeout_ms=60001", "timeout_ms", 'timeout_ms must be an integer from 1 to 60000; got "60001".'],
    ["timeout_ms=1.5", "timeout_ms", "timeout_ms must be an integer from 1 to 60000"],
    ["timeout_ms=5&timeout_ms=6", "timeout_ms", "The query parameter timeout_ms was given 2 times: send it once."],
    // As Python's requests sends a list: the refusal shows the one form a list of types takes.
    [
      "type=payment_intent.created&type=payment_intent.captured",
      "type",
      "The query parameter type was given 2 times: give its values once, comma-separated: type=payment_intent.created,payment_intent.captured.",
    ],
    ["objectId=pi_1", "objectId", 'Unknown field "objectId"'],
    ["object_id=", "object_id", "object_id must not be empty"],
  ])("refuses ?%s with 400 naming %s", async (query, param, message) => {
    const paysim = await usePaysim();
    const answer = await paysim.api("GET", `/v1/sandbox/events/wait?${query}`);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ code: "invalid_request", param });
    expect(answer.body.error.message).toContain(message);
    if (param === "type" && message.includes("not an event type")) for (const type of EVENT_TYPES) expect(answer.body.error.message).toContain(type);
    expect(paysim.waits.running()).toBe(0);
  });
});

describe("GET /v1/sandbox/webhooks/wait", () => {
  it("answers the delivery a resend made with resent=true, and only the event's first one with resent=false", async () => {
    const receiver = await useReceiver(200);
    const paysim = await usePaysim({ forwardTo: receiver.url });
    const intent = await createIntent(paysim);
    const wait = (query: string) => paysim.api("GET", `/v1/sandbox/webhooks/wait?object_id=${intent.id}&timeout_ms=20000&${query}`);
    const first = await wait("resent=false");
    expect(first.status, first.text).toBe(200);

    const waiting = wait("resent=true");
    await held(paysim);
    expect((await paysim.api("POST", `/v1/events/${first.body.event.id}/resend`, { body: {} })).status).toBe(200);
    const resent = await waiting;
    expect(resent.status, resent.text).toBe(200);
    expect(resent.body.event.id).toBe(first.body.event.id);
    expect(resent.body.delivery.id).not.toBe(first.body.delivery.id);
    expect(resent.body.delivery.status).toBe("succeeded");
    expect((await wait("resent=false")).body.delivery.id).toBe(first.body.delivery.id);
    expectApiError(await wait("resent=yes"), 400, "invalid_request", "resent");
  });

  it("resolves with the event and the delivery once it succeeds", async () => {
    const receiver = await useReceiver(200);
    const paysim = await usePaysim({ forwardTo: receiver.url });
    const waiting = paysim.api("GET", `/v1/sandbox/webhooks/wait?type=payment_intent.created&url=${encodeURIComponent(receiver.url)}&timeout_ms=20000`);
    await held(paysim);
    const intent = await createIntent(paysim);
    const answer = await waiting;
    expect(answer.status, answer.text).toBe(200);
    expect(Object.keys(answer.body)).toEqual(["object", "event", "delivery", "request_id"]);
    expect(answer.body).toMatchObject({
      object: "webhook_wait",
      event: { type: "payment_intent.created", data: { id: intent.id } },
      delivery: { url: receiver.url, status: "succeeded" },
    });
    expect(answer.body.request_id).toBe(answer.headers.get("request-id"));
    expect(receiver.requests.map((request) => JSON.parse(request.body.toString()).id)).toContain(answer.body.event.id);
  });

  it("waits for the n-th attempt: a receiver that fails twice, then succeeds on the second retry", async () => {
    const receiver = await useReceiver(200);
    receiver.queue(500, 500);
    const paysim = await useFrozenPaysim({ forwardTo: receiver.url });
    const third = paysim.api("GET", "/v1/sandbox/webhooks/wait?type=payment_intent.created&attempt=3&timeout_ms=20000");
    await createIntent(paysim);
    const second = await paysim.api("GET", "/v1/sandbox/webhooks/wait?attempt=1&status=failed&timeout_ms=1");
    expect(second.status).toBe(408);
    await advance(paysim, 30);
    await advance(paysim, 120);
    const answer = await third;
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.delivery.status).toBe("succeeded");
    expect(answer.body.delivery.attempts.map((attempt: { status_code: number }) => attempt.status_code)).toEqual([500, 500, 200]);
  });

  it("times out listing the last deliveries: type, url, status, last status code", async () => {
    const receiver = await useReceiver(500);
    const paysim = await useFrozenPaysim({ forwardTo: receiver.url });
    await createIntent(paysim);
    await paysim.scheduler.idle();
    const answer = await paysim.api("GET", "/v1/sandbox/webhooks/wait?timeout_ms=10");
    expect(answer.status).toBe(408);
    expect(answer.body.error.message).toBe(
      `No webhook delivery matched {} within 10 ms.\nThe last 1 delivery(ies), oldest first:\n  payment_intent.created ${receiver.url} pending, last status 500`,
    );
  });

  it("times out naming the cause when the company has no webhook endpoint", async () => {
    const paysim = await useFrozenPaysim();
    await createIntent(paysim);
    const answer = await paysim.api("GET", "/v1/sandbox/webhooks/wait?type=payment_intent.created&timeout_ms=10");
    expectApiError(answer, 408, "wait_timeout");
    expect(answer.body.error.message.split("\n")).toEqual([
      'No webhook delivery matched {"type":"payment_intent.created"} within 10 ms.',
      "No webhook endpoint is registered, so nothing is delivered: an endpoint receives only the events after it is added (POST /v1/webhook_endpoints, or --forward-to).",
      "No delivery has been made since paysim started (or was last reset).",
    ]);
  });

  it("times out naming the cause when no endpoint listens to the type, or none has the url", async () => {
    const paysim = await useFrozenPaysim();
    await createEndpoint(paysim, "http://127.0.0.1:9/payouts", ["payout.created", "payout.succeeded"]);
    await createIntent(paysim);
    const byType = await paysim.api("GET", "/v1/sandbox/webhooks/wait?type=payment_intent.created,payment_intent.captured&timeout_ms=10");
    expectApiError(byType, 408, "wait_timeout");
    expect(byType.body.error.message.split("\n")[1]).toBe(
      "No webhook endpoint listens to payment_intent.created or payment_intent.captured, so nothing of that type is delivered " +
        "(http://127.0.0.1:9/payouts listens to payout.created, payout.succeeded): an endpoint receives only the events after it is added (POST /v1/webhook_endpoints, or --forward-to).",
    );
    const byUrl = await paysim.api("GET", `/v1/sandbox/webhooks/wait?url=${encodeURIComponent("http://127.0.0.1:9/hooks")}&timeout_ms=10`);
    expect(byUrl.body.error.message.split("\n")[1]).toBe(
      "No webhook endpoint has the url http://127.0.0.1:9/hooks (the endpoints: http://127.0.0.1:9/payouts).",
    );
    // A cause is named only when the endpoints give one: here one listens, the delivery is just not there.
    const listened = await paysim.api("GET", "/v1/sandbox/webhooks/wait?type=payout.created&timeout_ms=10");
    expect(listened.body.error.message).not.toContain("No webhook endpoint");
  });

  it("keeps waiting when the company has no endpoint yet: one added during the wait answers it", async () => {
    const receiver = await useReceiver(200);
    const paysim = await usePaysim();
    const waiting = paysim.api("GET", "/v1/sandbox/webhooks/wait?type=payment_intent.created&timeout_ms=20000");
    await held(paysim);
    await createEndpoint(paysim, receiver.url);
    const intent = await createIntent(paysim);
    const answer = await waiting;
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.event.data.id).toBe(intent.id);
  });

  it.each([
    ["status=done", "status", "status must be one of: succeeded, failed, attempted."],
    ["attempt=0", "attempt", 'attempt must be an integer from 1 to 7; got "0".'],
    ["attempt=8", "attempt", 'attempt must be an integer from 1 to 7; got "8".'],
    ["chaos=lost", "chaos", "chaos must be one of: duplicate, reordered, delayed."],
    ["endpoint=we_1", "endpoint", 'Unknown field "endpoint"'],
  ])("refuses ?%s with 400 naming %s", async (query, param, message) => {
    const paysim = await usePaysim();
    const answer = await paysim.api("GET", `/v1/sandbox/webhooks/wait?${query}`);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ code: "invalid_request", param });
    expect(answer.body.error.message).toContain(message);
  });

  it("resolves for an attempt chaos made: a duplicate, after the delivery succeeded", async () => {
    const receiver = await useReceiver(200);
    const paysim = await useFrozenPaysim();
    const endpoint = await createEndpoint(paysim, receiver.url);
    const chaos = await paysim.api("POST", "/v1/webhook_endpoints", { body: { url: `${receiver.url}?chaos`, chaos: { duplicate: 1 } } });
    expect(chaos.status, chaos.text).toBe(201);
    const waiting = paysim.api("GET", "/v1/sandbox/webhooks/wait?chaos=duplicate&timeout_ms=20000");
    await held(paysim);
    await paysim.api("POST", "/v1/payment_intents", { body: { amount: 100 }, idempotencyKey: freshKey() });
    await paysim.scheduler.idle();
    await advance(paysim, 10);
    const answer = await waiting;
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.delivery.url).toBe(`${receiver.url}?chaos`);
    expect(answer.body.delivery.url).not.toBe(endpoint.url);
    expect(answer.body.delivery.status).toBe("succeeded");
    expect(answer.body.delivery.attempts.map((attempt: { chaos: string | null }) => attempt.chaos)).toEqual([null, "duplicate"]);
  });
});

import { existsSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { join } from "node:path";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { planChaos, type Chaos } from "../../src/domain/chaos.js";
import { verifySignature } from "../../src/webhooks/sign.js";
import { defer, usePaysim, useReceiver, useTempDir, useTempPath } from "../helpers/disposables.js";
import type { Receiver } from "../helpers/receiver.js";
import { seededSource } from "../helpers/seeded-random.js";
import type { TestPaysim } from "../helpers/paysim.js";
import { advance, createEndpoint, emitCreatedEvent, eventWithDeliveries, settle, useFrozenPaysim } from "./support.js";

const T0 = Date.parse("2030-01-01T00:00:00.000Z");
const SECRET = "whsec_chaos_test_0001";
const settings = (chaos: Partial<Chaos>): Chaos => ({ duplicate: 0, reorder: 0, delay_ms: [0, 0], seed: 0, ...chaos });

/** A frozen-clock paysim forwarding to `receiver` with this chaos on its endpoint. */
function chaoticPaysim(receiver: Receiver, chaos: Partial<Chaos>, extra: object = {}): Promise<TestPaysim> {
  return useFrozenPaysim({ forwardTo: receiver.url, webhookSecret: SECRET, chaos: settings(chaos), ...extra });
}

/** The one delivery of an event, as `GET /v1/events/:id` shows it. */
async function deliveryOf(paysim: TestPaysim, eventId: string): Promise<any> {
  const { deliveries } = await eventWithDeliveries(paysim, eventId);
  expect(deliveries).toHaveLength(1);
  return deliveries[0];
}

const eventIdsReceived = (receiver: Receiver) => receiver.requests.map((r) => r.headers["service-event-id"] as string);

describe("chaos on a webhook endpoint", () => {
  it("is shown on the endpoint (filled with its defaults), null when none, through the API and --forward-to", async () => {
    const paysim = await useFrozenPaysim({ forwardTo: "http://127.0.0.1:9/hooks", chaos: "duplicate=0.25,seed=9" });
    const made = await createEndpoint(paysim, "http://127.0.0.1:9/a");
    expect(made.chaos).toBeNull();
    const response = await paysim.api("POST", "/v1/webhook_endpoints", { body: { url: "http://127.0.0.1:9/b", chaos: { reorder: 0.5, delay_ms: [10, 20] } } });
    expect(response.status, response.text).toBe(201);
    expect(response.body.chaos).toEqual({ duplicate: 0, reorder: 0.5, delay_ms: [10, 20], seed: 0 });
    const list = await paysim.api("GET", "/v1/webhook_endpoints");
    expect(list.body.data.map((e: any) => e.chaos)).toEqual([{ duplicate: 0.25, reorder: 0, delay_ms: [0, 0], seed: 9 }, null, response.body.chaos]);
    expect((await paysim.api("GET", `/v1/webhook_endpoints/${response.body.id}`)).body.chaos).toEqual(response.body.chaos);
  });

  it("comes from a config file's endpoint, and goes when a later start's config no longer declares it", async () => {
    const dir = useTempDir("paysim-chaos-config-");
    const db = join(dir, "paysim.db");
    /** A config file declaring one endpoint, with this chaos if any. */
    const declared = (chaos?: object) => {
      const path = join(dir, "paysim.json");
      writeFileSync(
        path,
        JSON.stringify({
          companies: [{ name: "Acme", secret_key: "sk_test_acme_0001", webhook_endpoints: [{ url: "http://127.0.0.1:9/hooks", ...(chaos && { chaos }) }] }],
        }),
      );
      return path;
    };
    const first = await usePaysim({ db, config: declared({ reorder: 0.2, seed: 4 }) });
    expect((await first.api("GET", "/v1/webhook_endpoints")).body.data.map((e: any) => e.chaos)).toEqual([
      { duplicate: 0, reorder: 0.2, delay_ms: [0, 0], seed: 4 },
    ]);
    await first.close();
    const second = await usePaysim({ db, config: declared() });
    expect((await second.api("GET", "/v1/webhook_endpoints")).body.data.map((e: any) => e.chaos)).toEqual([null]);
  });

  it.each([
    ["duplicate=2", "chaos is refused: duplicate must be a number from 0 to 1 (got 2)."],
    [{ delay_ms: [9, 1] }, "chaos is refused: delay_ms must be a list [min, max] of integers from 0 to 60000, min not above max (got an array)."],
    [{ often: 1 }, 'chaos is refused: has an unknown setting "often".'],
  ])("refuses startPaysim's chaos %j with a ConfigError, before anything is written", async (chaos, message) => {
    const db = useTempPath();
    await expect(usePaysim({ db, forwardTo: "http://127.0.0.1:9/hooks", chaos: chaos as never })).rejects.toThrow(message);
    expect(existsSync(db)).toBe(false);
  });

  it("refuses chaos without a forwardTo endpoint to put it on", async () => {
    await expect(usePaysim({ chaos: "duplicate=0.5" })).rejects.toThrow("chaos is refused: it applies to the forward-to endpoints only, and none is given.");
  });

  it.each([
    [{ duplicate: 2 }, "chaos.duplicate", "chaos.duplicate must be a number from 0 to 1 (got 2)."],
    [{ reorder: "often" }, "chaos.reorder", "chaos.reorder must be a number from 0 to 1 (got a string)."],
    [{ delay_ms: [3000, 10] }, "chaos.delay_ms", "chaos.delay_ms must be a list [min, max] of integers from 0 to 60000, min not above max (got an array)."],
    [{ delay_ms: [0, 70000] }, "chaos.delay_ms.1", "chaos.delay_ms must be a list [min, max] of integers from 0 to 60000, min not above max (got 70000)."],
    [{ seed: 0.5 }, "chaos.seed", "chaos.seed must be an integer (got 0.5)."],
    [{ dupe: 0.2 }, "chaos.dupe", 'Unknown field "chaos.dupe": remove it or check its spelling.'],
    ["lots", "chaos", 'chaos must be an object such as {"duplicate": 0.2, "reorder": 0.2, "delay_ms": [0, 3000], "seed": 42}, or null (got a string).'],
  ])("refuses chaos %j with 400, naming %s, and writes nothing", async (chaos, param, message) => {
    const paysim = await useFrozenPaysim();
    const response = await paysim.api("POST", "/v1/webhook_endpoints", { body: { url: "http://127.0.0.1:9/hooks", chaos } });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: { code: "invalid_request", message, param }, request_id: expect.stringMatching(/^req_/) });
    expect((await paysim.api("GET", "/v1/webhook_endpoints")).body.data).toEqual([]);
  });

  it("a seeded run gives the same chaos twice: the same attempts, marked the same, as the pure decision says", async () => {
    const chaos = settings({ duplicate: 0.5, reorder: 0.5, delay_ms: [0, 3000], seed: 42 });
    const run = async () => {
      const receiver = await useReceiver(200);
      // The same random source makes the same event ids: the only input chaos reads besides the seed.
      const paysim = await usePaysim({ realNow: () => T0, random: seededSource(5), forwardTo: receiver.url, webhookSecret: SECRET, chaos });
      const eventIds: string[] = [];
      for (let i = 0; i < 24; i++) eventIds.push((await emitCreatedEvent(paysim)).eventId);
      for (let second = 0; second < 25; second++) await advance(paysim, 1);
      const marks: (string | null)[][] = [];
      for (const id of eventIds) marks.push((await deliveryOf(paysim, id)).attempts.map((a: any) => a.chaos));
      return { eventIds, marks, received: receiver.requests.length };
    };
    const first = await run();
    const second = await run();
    expect(second).toEqual(first);

    const expected = first.eventIds.map((id) => {
      const plan = planChaos(chaos, id);
      const firstMark = plan.held ? "reordered" : plan.delayMs > 0 ? "delayed" : null;
      return plan.duplicateAfterMs === null ? [firstMark] : [firstMark, "duplicate"];
    });
    expect(first.marks).toEqual(expected);
    const all = first.marks.flat();
    for (const mark of ["reordered", "delayed", "duplicate"]) expect(all).toContain(mark);
    expect(first.received).toBe(all.length);
  });

  it("over 1,000 events with duplicate 0.3 duplicates near 30 %, each repeating the exact body with its own valid signature", async () => {
    const receiver = await useReceiver(200);
    const chaos = settings({ duplicate: 0.3, seed: 11 });
    // Seeded ids: the same events, so the same share, on every run.
    const paysim = await chaoticPaysim(receiver, chaos, { random: seededSource(30) });
    const company = paysim.companies[0]!.company.id;
    for (let i = 0; i < 1000; i++) {
      const ingested = await paysim.api("POST", "/v1/sandbox/webhook_ingest", {
        body: { type: "payout.created", data: { reference: `POUT-${String(i).padStart(10, "0")}`, amount: 100 + i, currency: "EUR" } },
      });
      expect(ingested.status, ingested.text).toBe(201);
    }
    await settle(paysim);
    // A duplicate comes 1–10 s of clock time after the success it repeats: none while the clock stands still.
    expect(receiver.requests).toHaveLength(1000);
    await advance(paysim, 10);

    const byEvent = new Map<string, (typeof receiver.requests)[number][]>();
    for (const request of receiver.requests) {
      const id = request.headers["service-event-id"] as string;
      byEvent.set(id, [...(byEvent.get(id) ?? []), request]);
    }
    expect(byEvent.size).toBe(1000);
    const duplicated = [...byEvent].filter(([, requests]) => requests.length === 2);
    expect([...byEvent.values()].every((requests) => requests.length <= 2)).toBe(true);
    expect(duplicated.length).toBeGreaterThan(250);
    expect(duplicated.length).toBeLessThan(350);
    // Exactly the events the seeded decision picks.
    expect(duplicated.map(([id]) => id).sort()).toEqual([...byEvent.keys()].filter((id) => planChaos(chaos, id).duplicateAfterMs !== null).sort());
    for (const [id, [original, duplicate]] of duplicated) {
      expect(duplicate!.body.equals(original!.body)).toBe(true);
      expect(duplicate!.body.equals(Buffer.from(paysim.store.events.byId(company, id)!.body, "utf8"))).toBe(true);
      expect(verifySignature(duplicate!.body, duplicate!.headers["service-signature"] as string, SECRET)).toBe(true);
      expect(verifySignature(original!.body, original!.headers["service-signature"] as string, SECRET)).toBe(true);
    }

    const [someId] = duplicated[0]!;
    const delivery = await deliveryOf(paysim, someId);
    expect(delivery.status).toBe("succeeded");
    expect(delivery.next_attempt_at).toBeNull();
    expect(delivery.attempts).toEqual([
      { attempted_at: expect.any(String), status_code: 200, error: null, duration_ms: expect.any(Number), response_body: "answered 200", chaos: null },
      { attempted_at: expect.any(String), status_code: 200, error: null, duration_ms: expect.any(Number), response_body: "answered 200", chaos: "duplicate" },
    ]);
  });

  it("records a failed duplicate and never retries it: the delivery stays succeeded", async () => {
    const receiver = await useReceiver(200);
    receiver.queue(200, 503);
    const paysim = await chaoticPaysim(receiver, { duplicate: 1 });
    const { eventId } = await emitCreatedEvent(paysim);
    await settle(paysim);
    await advance(paysim, 10);
    expect(receiver.requests).toHaveLength(2);
    await advance(paysim, 86_400);
    await advance(paysim, 86_400);
    expect(receiver.requests).toHaveLength(2);
    const delivery = await deliveryOf(paysim, eventId);
    expect(delivery.status).toBe("succeeded");
    expect(delivery.attempts.map((a: any) => [a.status_code, a.chaos])).toEqual([
      [200, null],
      [503, "duplicate"],
    ]);
  });

  it("reorder really delivers a later event first, and then the held one, without the clock moving", async () => {
    const receiver = await useReceiver(200);
    const chaos = settings({ reorder: 0.5, seed: 3 });
    const paysim = await chaoticPaysim(receiver, chaos, { random: seededSource(21) });
    const held: string[] = [];
    let later: string | undefined;
    for (let i = 0; i < 60 && later === undefined; i++) {
      const { eventId } = await emitCreatedEvent(paysim);
      if (planChaos(chaos, eventId).held) held.push(eventId);
      else if (held.length > 0) later = eventId;
      await settle(paysim);
    }
    expect(held.length).toBeGreaterThan(0);
    expect(later).toBeDefined();
    const order = eventIdsReceived(receiver);
    for (const id of held) {
      expect(order.filter((x) => x === id)).toHaveLength(1);
      expect(order.indexOf(id)).toBeGreaterThan(order.indexOf(later!));
      expect((await deliveryOf(paysim, id)).attempts).toMatchObject([{ status_code: 200, chaos: "reordered" }]);
    }
    expect((await deliveryOf(paysim, later!)).attempts).toMatchObject([{ status_code: 200, chaos: null }]);
  });

  it("keeps the normal retry schedule after a held first attempt fails", async () => {
    const receiver = await useReceiver(200);
    receiver.queue(500);
    const paysim = await chaoticPaysim(receiver, { reorder: 1 });
    const { eventId } = await emitCreatedEvent(paysim);
    await advance(paysim, 10);
    const failed = await deliveryOf(paysim, eventId);
    expect(failed.attempts).toMatchObject([{ status_code: 500, chaos: "reordered", response_body: "answered 500" }]);
    expect(Date.parse(failed.next_attempt_at)).toBe(Date.parse(failed.attempts[0].attempted_at) + 30_000);
    await advance(paysim, 30);
    const delivered = await deliveryOf(paysim, eventId);
    expect(delivered.status).toBe("succeeded");
    expect(delivered.attempts.map((a: any) => [a.status_code, a.chaos])).toEqual([
      [500, "reordered"],
      [200, null],
    ]);
  });

  it.each([
    ["holds a first attempt for at most 10 s of clock time, then sends it marked reordered", { reorder: 1 }, 10, "reordered"],
    ["delays a first attempt by the drawn delay_ms, marked delayed", { delay_ms: [2000, 2000] as [number, number] }, 2, "delayed"],
  ] as const)("%s", async (_name, chaos, seconds, mark) => {
    const receiver = await useReceiver(200);
    const paysim = await chaoticPaysim(receiver, chaos);
    const { eventId } = await emitCreatedEvent(paysim);
    await settle(paysim);
    const waiting = await deliveryOf(paysim, eventId);
    expect(waiting).toMatchObject({ status: "pending", attempts: [], next_attempt_at: new Date(frozenNow(paysim) + seconds * 1000).toISOString() });
    await advance(paysim, seconds - 1);
    expect(receiver.requests).toHaveLength(0);
    await advance(paysim, 1);
    expect(eventIdsReceived(receiver)).toEqual([eventId]);
    expect((await deliveryOf(paysim, eventId)).attempts).toMatchObject([{ status_code: 200, chaos: mark }]);
  });

  it("leaves an endpoint without chaos exactly as before: one attempt at once, chaos null", async () => {
    const receiver = await useReceiver(200);
    const paysim = await useFrozenPaysim({ forwardTo: receiver.url });
    const { eventId } = await emitCreatedEvent(paysim);
    await receiver.waitForRequests(1);
    await settle(paysim);
    await advance(paysim, 60);
    expect(receiver.requests).toHaveLength(1);
    expect((await deliveryOf(paysim, eventId)).attempts).toMatchObject([{ status_code: 200, chaos: null }]);
  });

  it("sends a duplicate when its drawn 1–10 s of clock time have passed since the success, announced on the bus with its mark", async () => {
    const receiver = await useReceiver(200);
    const chaos = settings({ duplicate: 1, delay_ms: [1000, 1000], seed: 8 });
    const paysim = await chaoticPaysim(receiver, chaos);
    const marks: (string | null | undefined)[] = [];
    paysim.bus.on("delivery.attempted", (update) => marks.push(update.attempt.chaos));
    const { eventId } = await emitCreatedEvent(paysim);
    await advance(paysim, 1);
    expect(receiver.requests).toHaveLength(1);
    const after = planChaos(chaos, eventId).duplicateAfterMs!;
    let seconds = 0;
    while (receiver.requests.length < 2 && seconds < 11) {
      await advance(paysim, 1);
      seconds += 1;
    }
    expect(seconds).toBe(Math.ceil(after / 1000));
    expect(marks).toEqual(["delayed", "duplicate"]);
  });
});

describe("response_body on every attempt", () => {
  /** A receiver answering every request with `body`. */
  async function answering(status: number, body: string): Promise<string> {
    const server = createServer((req, res) => {
      req.resume();
      req.on("end", () => res.writeHead(status, { "Content-Type": "text/plain" }).end(body));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    defer(() => new Promise<void>((resolve) => server.close(() => resolve())));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  }

  it("keeps what the receiver said, with card numbers masked", async () => {
    const paysim = await useFrozenPaysim({ forwardTo: await answering(422, "bad card 4242 4242 4242 4242, try again") });
    const { eventId } = await emitCreatedEvent(paysim);
    await settle(paysim);
    const [attempt] = (await deliveryOf(paysim, eventId)).attempts;
    expect(attempt).toMatchObject({ status_code: 422, response_body: "bad card **** **** **** 4242, try again" });
    expect(JSON.stringify(paysim.store.deliveryAttempts.forDeliveries([(await deliveryOf(paysim, eventId)).id]))).not.toContain("4242 4242");
  });

  it("keeps the first 1 KiB of a longer answer, and an empty answer as an empty string", async () => {
    const receiver = await useReceiver(200);
    receiver.queue({ status: 200, bodyBytes: 5000 });
    const paysim = await useFrozenPaysim({ forwardTo: receiver.url });
    const { eventId } = await emitCreatedEvent(paysim);
    await settle(paysim);
    expect((await deliveryOf(paysim, eventId)).attempts[0].response_body).toBe("a".repeat(1024));

    const empty = await useFrozenPaysim({ forwardTo: await answering(204, "") });
    const second = await emitCreatedEvent(empty);
    await settle(empty);
    expect((await deliveryOf(empty, second.eventId)).attempts[0]).toMatchObject({ status_code: 204, response_body: "" });
  });
});

/** The frozen clock's time of the paysim (its realNow never moves). */
function frozenNow(paysim: TestPaysim): number {
  return paysim.clock.now();
}

import { beforeAll, describe, expect, it } from "vitest";
import { EVENT_TYPES } from "../../src/domain/events.js";
import { suiteScope, useReceiver } from "../helpers/disposables.js";
import { hashedUnit, inPool, listAll } from "../helpers/load.js";
import { manualTimers } from "../helpers/manual-timers.js";
import type { TestPaysim } from "../helpers/paysim.js";
import type { Behaviour, ReceivedRequest, Receiver } from "../helpers/receiver.js";
import { expectedV1, parseSignature, settle, useFrozenPaysim } from "../webhooks/support.js";

/**
 * A receiver that flaps under a few thousand events: per request it answers
 * 200, answers 500, hangs past the webhook timeout, resets the connection, or
 * answers 200 slowly but in time. What it does to request n of event i is a
 * pure function of a seed, i and n, so the test knows in advance what every
 * delivery must end as, and checks paysim's record against that and against
 * what the receiver saw.
 */

const SEED = 0x5eedf1a9;
const EVENTS = 2000;
/** Events are created in four batches at these clock offsets (s), so deliveries fall due at different times. */
const BATCH_OFFSETS = [0, 3, 11, 26];
const CLIENTS = 16;
/**
 * The webhook timeout runs on timers the test moves (`timers`): an attempt the receiver hangs on
 * times out when the test moves them past it, once every attempt still in flight is one it hangs
 * on; an answer, however late the loaded machine lets it come, is never cut off by real time.
 */
const WEBHOOK_TIMEOUT_MS = 2_000;
const SECRET = "whsec_flapping_receiver_0001";
const PAN = "4242 4242 4242 4242";
/** Seconds between attempts (docs/webhooks.md): 30 s, 2 min, 10 min, 1 h, 6 h, 24 h. */
const DELAYS = [30, 120, 600, 3600, 21_600, 86_400];
/** Each attempt's offset from the delivery's first one. */
const CUMULATIVE = DELAYS.reduce<number[]>((sums, delay) => [...sums, sums.at(-1)! + delay], [0]);
const TWO_DAYS = 2 * 86_400;

type Flap = "ok" | "slow" | "error" | "hang" | "reset";

/** What the receiver does to the n-th request (1-based) it gets for event `index`. */
function flap(index: number, n: number): Flap {
  const r = hashedUnit(SEED, index, n);
  if (r < 0.34) return "ok";
  if (r < 0.48) return "slow";
  if (r < 0.74) return "error";
  if (r < 0.77) return "hang";
  return "reset";
}

const succeeds = (kind: Flap) => kind === "ok" || kind === "slow";

function behaviourOf(kind: Flap, index: number, n: number): Behaviour {
  switch (kind) {
    case "ok":
      return 200;
    case "slow":
      return { status: 200, afterMs: 5 + Math.floor(hashedUnit(SEED + 1, index, n) * 25) };
    case "error":
      return 500;
    case "hang":
      return "hang";
    case "reset":
      return "destroy";
  }
}

/** The attempts one delivery makes when its first request is the event's request number `from`. */
function predictedDelivery(index: number, from: number): Flap[] {
  const kinds: Flap[] = [];
  for (let n = from; kinds.length < 7; n++) {
    kinds.push(flap(index, n));
    if (succeeds(kinds.at(-1)!)) break;
  }
  return kinds;
}

/** How paysim must record an attempt the receiver treated as `kind`. */
function expectedAttempt(kind: Flap): { status_code: number | null; error: RegExp | null } {
  switch (kind) {
    case "ok":
    case "slow":
      return { status_code: 200, error: null };
    case "error":
      return { status_code: 500, error: null };
    case "hang":
      return { status_code: null, error: new RegExp(`^timeout: no response within ${WEBHOOK_TIMEOUT_MS} ms$`) };
    case "reset":
      return { status_code: null, error: /^(connection reset|network error)/ };
  }
}

let paysim: TestPaysim;
let receiver: Receiver;
const timers = manualTimers();
/** Event id by test index, from the ingest answers. */
const eventIds: string[] = [];
const indexOf = new Map<string, number>();
/** Clock time (ms) each event was created at. */
const createdAt: number[] = [];
/** The two events resent after every first delivery had ended, and when. */
let resent: { index: number; at: number }[] = [];
/** Receiver requests up to the resends. */
let receivedBeforeResend = 0;
/** Receiver requests when the last retry was due, and after two more days. */
let receivedAtLastStop = 0;
let receivedAfterMargin = 0;
/** Every event as GET /v1/events/:id shows it at the end, by index. */
let shown: any[] = [];
let listed: any[] = [];
let t0 = 0;
let now = 0;

/**
 * Every attempt started has been recorded. Bounded, so that an attempt stuck
 * forever (a timeout that never fires) fails the run with what is stuck
 * instead of a bare hook timeout; a guard, not a timing assertion.
 */
async function settled(): Promise<void> {
  let guard: NodeJS.Timeout | undefined;
  const stuck = new Promise<never>((_, reject) => {
    guard = setTimeout(
      () => reject(new Error(`attempts never finished: ${paysim.scheduler.inFlightCount()} in flight, ${receiver.hangingCount()} held open by the receiver`)),
      60_000,
    );
  });
  try {
    await Promise.race([settleTimingOutHangs(), stuck]);
  } finally {
    clearTimeout(guard);
  }
}

/**
 * `settle`, ending the attempts the receiver hangs on: whenever every attempt in flight is one
 * it holds open, the timers move past the webhook timeout (the others have all answered). The
 * counts are read again at each change that moves them, once its work has settled: a request
 * reaching the receiver or a held one closing, an attempt ending.
 */
async function settleTimingOutHangs(): Promise<void> {
  let done = false;
  const idle = settle(paysim).then(() => (done = true));
  while (!done) {
    const inFlight = paysim.scheduler.inFlightCount();
    if (inFlight > 0 && inFlight === receiver.hangingCount()) timers.advance(WEBHOOK_TIMEOUT_MS);
    let attemptEnded!: () => void;
    const ended = new Promise<void>((resolve) => (attemptEnded = resolve));
    paysim.bus.once("delivery.attempted", attemptEnded);
    await Promise.race([idle, receiver.nextChange(), ended]);
    paysim.bus.off("delivery.attempted", attemptEnded);
    await timers.settled();
  }
}

/** Moves the clock to `at` (ms) over the API and waits for the attempts it started to be recorded. */
async function goTo(at: number): Promise<void> {
  if (at > now) {
    const response = await paysim.api("POST", "/v1/sandbox/clock/advance", { body: { seconds: (at - now) / 1000 } });
    if (response.status !== 200) throw new Error(`advance answered ${response.status}: ${response.text}`);
    now = at;
  }
  await settled();
}

async function ingest(index: number): Promise<void> {
  const response = await paysim.api("POST", "/v1/sandbox/webhook_ingest", {
    body: {
      type: EVENT_TYPES[index % EVENT_TYPES.length],
      data: { reference: `FLAP-${index}`, amount: 100 + index, currency: "EUR", index, note: index % 10 === 0 ? `paid with ${PAN}` : "flapping" },
    },
  });
  if (response.status !== 201) throw new Error(`ingest ${index} answered ${response.status}: ${response.text}`);
  eventIds[index] = response.body.id;
  indexOf.set(response.body.id, index);
  createdAt[index] = now;
}

/** The receiver's requests for each event, in arrival order. */
function requestsByEvent(requests: readonly ReceivedRequest[]): Map<string, ReceivedRequest[]> {
  const byEvent = new Map<string, ReceivedRequest[]>();
  for (const request of requests) {
    const id = String(request.headers["service-event-id"]);
    byEvent.set(id, [...(byEvent.get(id) ?? []), request]);
  }
  return byEvent;
}

const twoXx = (request: ReceivedRequest) =>
  request.answered && typeof request.behaviour !== "string" && (typeof request.behaviour === "number" ? request.behaviour : request.behaviour.status) < 300;

describe(`a receiver flapping under ${EVENTS} events, the clock advanced through the whole retry schedule`, () => {
  const thisSuite = suiteScope();
  beforeAll(async () => {
    const seen = new Map<number, number>();
    receiver = await useReceiver((request) => {
      const index = (JSON.parse(request.body.toString("utf8")) as { data: { index: number } }).data.index;
      const n = (seen.get(index) ?? 0) + 1;
      seen.set(index, n);
      return behaviourOf(flap(index, n), index, n);
    }, thisSuite);
    paysim = await useFrozenPaysim({ forwardTo: receiver.url, webhookSecret: SECRET, webhookTimeout: WEBHOOK_TIMEOUT_MS, timers }, thisSuite);
    t0 = now = Date.parse((await paysim.api("GET", "/v1/sandbox/clock")).body.now);

    // Every creation time and every time a retry of theirs can fall due, in order.
    const perBatch = EVENTS / BATCH_OFFSETS.length;
    const creations = new Map(BATCH_OFFSETS.map((offset, batch) => [t0 + offset * 1000, batch]));
    const stops = [...new Set(BATCH_OFFSETS.flatMap((offset) => CUMULATIVE.map((sum) => t0 + (offset + sum) * 1000)))].sort((a, b) => a - b);
    for (const at of stops) {
      await goTo(at);
      const batch = creations.get(at);
      if (batch !== undefined) {
        const indices = Array.from({ length: perBatch }, (_, i) => batch * perBatch + i);
        await inPool(indices, CLIENTS, ingest);
      }
      await settled();
    }
    receivedAtLastStop = receiver.requests.length;
    await goTo(now + TWO_DAYS * 1000);
    receivedAfterMargin = receiver.requests.length;
    receivedBeforeResend = receiver.requests.length;

    // Resend one event whose delivery succeeded and one that was given up, each to be received again.
    const counts = new Map<number, number>();
    for (const request of receiver.requests) {
      const index = indexOf.get(String(request.headers["service-event-id"]))!;
      counts.set(index, (counts.get(index) ?? 0) + 1);
    }
    const resendSucceeds = (index: number) => succeeds(predictedDelivery(index, counts.get(index)! + 1).at(-1)!);
    const delivered = eventIds.findIndex(
      (_, index) => succeeds(predictedDelivery(index, 1).at(-1)!) && resendSucceeds(index) && predictedDelivery(index, counts.get(index)! + 1).length > 1,
    );
    const givenUp = eventIds.findIndex((_, index) => !succeeds(predictedDelivery(index, 1).at(-1)!) && resendSucceeds(index));
    resent = [delivered, givenUp].map((index) => ({ index, at: now }));
    for (const { index } of resent) {
      const response = await paysim.api("POST", `/v1/events/${eventIds[index]}/resend`, { body: {} });
      if (response.status !== 200) throw new Error(`resend answered ${response.status}: ${response.text}`);
    }
    await settled();
    const resentAt = now;
    for (const sum of CUMULATIVE.slice(1)) await goTo(resentAt + sum * 1000);
    await goTo(now + TWO_DAYS * 1000);

    listed = await listAll(paysim.api, "/v1/events");
    shown = await inPool(eventIds, CLIENTS, async (id) => (await paysim.api("GET", `/v1/events/${id}`)).body);
  }, 180_000);

  it("loses no event: every one created is listed, with one delivery (two once resent), each ended succeeded or failed", () => {
    expect(eventIds.filter(Boolean)).toHaveLength(EVENTS);
    expect(new Set(listed.map((event) => event.id))).toEqual(new Set(eventIds));
    expect(listed).toHaveLength(EVENTS);
    const resentIndices = new Set(resent.map((r) => r.index));
    for (const [index, event] of shown.entries()) {
      expect(event.id).toBe(eventIds[index]);
      expect(event.deliveries, event.id).toHaveLength(resentIndices.has(index) ? 2 : 1);
      for (const delivery of event.deliveries) {
        expect(["succeeded", "failed"], `${event.id} ${delivery.status}`).toContain(delivery.status);
        expect(delivery.next_attempt_at).toBeNull();
      }
    }
  });

  it("ends a succeeded delivery at its one 2xx attempt, and gives a failed one up after exactly 7 attempts, none 2xx", () => {
    const is2xx = (attempt: any) => attempt.status_code !== null && attempt.status_code >= 200 && attempt.status_code < 300;
    const statuses = { succeeded: 0, failed: 0 };
    for (const event of shown) {
      for (const delivery of event.deliveries) {
        statuses[delivery.status as "succeeded" | "failed"] += 1;
        if (delivery.status === "succeeded") {
          expect(is2xx(delivery.attempts.at(-1)), event.id).toBe(true);
          expect(delivery.attempts.filter(is2xx), event.id).toHaveLength(1);
          expect(delivery.attempts.length).toBeLessThanOrEqual(7);
        } else {
          expect(delivery.attempts, event.id).toHaveLength(7);
          expect(delivery.attempts.filter(is2xx), event.id).toEqual([]);
        }
      }
    }
    // The flapping reached both ends: most deliveries got through, some were given up.
    expect(statuses.succeeded).toBeGreaterThan(statuses.failed);
    expect(statuses.failed).toBeGreaterThan(0);
  });

  it("records each attempt as what the receiver did, request by request: 2xx, 500, timeout or reset", () => {
    const byEvent = requestsByEvent(receiver.requests);
    const kindsSeen = new Set<Flap>();
    for (const [index, event] of shown.entries()) {
      const attempts = event.deliveries.flatMap((delivery: any) => delivery.attempts);
      const requests = byEvent.get(event.id) ?? [];
      expect(requests.length, `${event.id}: requests received vs attempts recorded`).toBe(attempts.length);
      let n = 1;
      for (const delivery of event.deliveries) {
        const predicted = predictedDelivery(index, n);
        expect(delivery.status, event.id).toBe(succeeds(predicted.at(-1)!) ? "succeeded" : "failed");
        expect(delivery.attempts, event.id).toHaveLength(predicted.length);
        for (const [i, kind] of predicted.entries()) {
          kindsSeen.add(kind);
          const { status_code, error } = expectedAttempt(kind);
          const attempt = delivery.attempts[i];
          expect(attempt.status_code, `${event.id} attempt ${i + 1} (${kind})`).toBe(status_code);
          if (error === null) expect(attempt.error).toBeNull();
          else expect(attempt.error, `${event.id} attempt ${i + 1} (${kind})`).toMatch(error);
          expect(requests[n - 1 + i]!.behaviour).toEqual(behaviourOf(kind, index, n + i));
        }
        n += predicted.length;
      }
    }
    expect([...kindsSeen].sort()).toEqual(["error", "hang", "ok", "reset", "slow"]);
  });

  it("makes every attempt exactly on schedule: the first when the event is created, each next one 30 s, 2 min, 10 min, 1 h, 6 h, 24 h after the one before", () => {
    const resentAt = new Map(resent.map((r) => [r.index, r.at]));
    for (const [index, event] of shown.entries()) {
      expect(Date.parse(event.created_at)).toBe(createdAt[index]);
      for (const [d, delivery] of event.deliveries.entries()) {
        const times = delivery.attempts.map((attempt: any) => Date.parse(attempt.attempted_at));
        expect(times[0], event.id).toBe(d === 0 ? createdAt[index] : resentAt.get(index));
        for (let i = 1; i < times.length; i++) expect(times[i] - times[i - 1], `${event.id} attempt ${i + 1}`).toBe(DELAYS[i - 1]! * 1000);
      }
    }
  });

  it("sends nothing more once every delivery has ended: two more days of clock bring no request", () => {
    expect(receivedAtLastStop).toBeGreaterThan(EVENTS);
    expect(receivedAfterMargin).toBe(receivedAtLastStop);
    const resentRequests = resent.reduce((sum, { index }) => sum + shown[index].deliveries[1].attempts.length, 0);
    expect(receiver.requests.length).toBe(receivedBeforeResend + resentRequests);
  });

  it("never makes the receiver answer 2xx twice for one event, except for the events that were resent", () => {
    const doubles = (requests: readonly ReceivedRequest[]) =>
      [...requestsByEvent(requests)].filter(([, received]) => received.filter(twoXx).length > 1).map(([id]) => id);
    expect(doubles(receiver.requests.slice(0, receivedBeforeResend))).toEqual([]);
    // Both resends were chosen to get through: the event delivered before is now received twice with a 2xx,
    // the one given up before once. No other event is.
    const [delivered, givenUp] = resent.map(({ index }) => eventIds[index]!);
    expect(doubles(receiver.requests)).toEqual([delivered]);
    expect(requestsByEvent(receiver.requests).get(givenUp!)!.filter(twoXx)).toHaveLength(1);
  });

  it("sends every request signed with the endpoint's secret (HMAC computed here) at the real time, with the event's exact bytes and no full PAN", () => {
    const wallNow = Math.floor(Date.now() / 1000);
    const bodies = new Map<string, Buffer>();
    for (const request of receiver.requests) {
      const id = String(request.headers["service-event-id"]);
      const { t, v1 } = parseSignature(request.headers["service-signature"]);
      expect(v1, id).toBe(expectedV1(SECRET, t, request.body));
      // Signed with the wall clock, not the virtual one that is now days ahead.
      expect(Math.abs(Number(t) - wallNow)).toBeLessThanOrEqual(300);
      const first = bodies.get(id) ?? request.body;
      bodies.set(id, first);
      expect(request.body.equals(first), `${id}: same bytes on every attempt`).toBe(true);
      const text = request.body.toString("utf8");
      expect(text).not.toContain(PAN);
      expect(text).not.toContain(PAN.replaceAll(" ", ""));
    }
    expect(bodies.size).toBe(EVENTS);
    for (const event of shown) {
      const { deliveries: _deliveries, ...resource } = event;
      expect(JSON.parse(bodies.get(event.id)!.toString("utf8"))).toEqual(resource);
    }
  });
});

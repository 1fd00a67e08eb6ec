import { createHmac } from "node:crypto";
import { expect } from "vitest";
import type { PaysimOptions } from "../../src/paysim.js";
import type { DeliveryAttempted } from "../../src/bus.js";
import { thisTest, usePaysim, type Scope } from "../helpers/disposables.js";
import { createIntent, startTestPaysim, type TestPaysim } from "../helpers/paysim.js";

/**
 * A paysim whose clock moves only when the test advances it: real time is
 * frozen for the clock (never for the signature's `t`, which reads the wall
 * clock), so every retry falls due exactly when the schedule says.
 */
export function startFrozenPaysim(options: PaysimOptions = {}): Promise<TestPaysim> {
  return startTestPaysim(frozen(options));
}

/** `startFrozenPaysim`, stopped with its scope (the running test by default). */
export function useFrozenPaysim(options: PaysimOptions = {}, scope: Scope = thisTest): Promise<TestPaysim> {
  return usePaysim(frozen(options), scope);
}

function frozen(options: PaysimOptions): PaysimOptions {
  const frozenAt = Date.now();
  return { realNow: () => frozenAt, ...options };
}

/** Every delivery started so far has finished and been recorded. */
export function settle(paysim: TestPaysim): Promise<void> {
  return paysim.scheduler.idle();
}

/** `POST /v1/sandbox/clock/advance` over HTTP, then waits for the attempts it started to be recorded. */
export async function advance(paysim: TestPaysim, seconds: number, key?: string): Promise<void> {
  const response = await paysim.api("POST", "/v1/sandbox/clock/advance", { body: { seconds }, key });
  expect(response.status, response.text).toBe(200);
  await settle(paysim);
}

/** Registers an endpoint over the API; fails the test unless it answers 201. */
export async function createEndpoint(paysim: Pick<TestPaysim, "api">, url: string, enabledEvents?: string[], key?: string): Promise<any> {
  const body = enabledEvents === undefined ? { url } : { url, enabled_events: enabledEvents };
  const response = await paysim.api("POST", "/v1/webhook_endpoints", { body, key });
  expect(response.status, response.text).toBe(201);
  return response.body;
}

/** `GET /v1/events/:id`: the event with its deliveries and attempts. */
export async function eventWithDeliveries(paysim: Pick<TestPaysim, "api">, eventId: string, key?: string): Promise<any> {
  const response = await paysim.api("GET", `/v1/events/${eventId}`, { key });
  expect(response.status, response.text).toBe(200);
  return response.body;
}

/** Creates a payment intent and answers the id of its `payment_intent.created` event. */
export async function emitCreatedEvent(paysim: Pick<TestPaysim, "api">, key?: string): Promise<{ intent: any; eventId: string }> {
  const intent = await createIntent(paysim, { amount: 1000 }, key);
  const events = await paysim.api("GET", "/v1/events?type=payment_intent.created&limit=1", { key });
  const event = events.body.data[0];
  expect(event.data.id).toBe(intent.id);
  return { intent, eventId: event.id };
}

/** The expected `v1` for `body` at `t`, computed here with node:crypto, independently of paysim's signer. */
export function expectedV1(secret: string, t: string, body: Buffer): string {
  return createHmac("sha256", Buffer.from(secret, "utf8"))
    .update(Buffer.concat([Buffer.from(`${t}.`, "utf8"), body]))
    .digest("hex");
}

/** `t=<digits>,v1=<64 hex>`, split; fails the test on any other shape. */
export function parseSignature(header: string | string[] | undefined): { t: string; v1: string } {
  expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
  const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header as string)!;
  return { t: t!, v1: v1! };
}

/**
 * Resolves with the first delivery update (an attempt recorded) that `matches`:
 * for waiting on one endpoint while another one's attempt is still in flight.
 */
export function deliveryUpdated(paysim: TestPaysim, matches: (update: DeliveryAttempted) => boolean): Promise<DeliveryAttempted> {
  return new Promise((resolve) => {
    const listener = (update: DeliveryAttempted) => {
      if (!matches(update)) return;
      paysim.bus.off("delivery.attempted", listener);
      resolve(update);
    };
    paysim.bus.on("delivery.attempted", listener);
  });
}

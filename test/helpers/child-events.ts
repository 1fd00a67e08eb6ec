import { setTimeout as delay } from "node:timers/promises";
import { expect } from "vitest";
import type { StartedPaysim } from "./cli.js";
import { callApi, clientFor, createIntent } from "./paysim.js";

/** Creates a payment intent on a paysim child process and answers the id of its `payment_intent.created` event. */
export async function createdEventId(started: StartedPaysim): Promise<string> {
  const intent = await createIntent(clientFor(started.url, started.key));
  const events = await callApi(started.url, started.key, "GET", "/v1/events?type=payment_intent.created&limit=1");
  expect(events.body.data[0].data.id).toBe(intent.id);
  return events.body.data[0].id;
}

/**
 * Waits until the child's API shows what `check` wants. The child is another
 * process: the only way to see its state is to ask it, so this asks again
 * until it matches (bounded, to fail a hung test with the last answer).
 */
export async function eventWhen(started: StartedPaysim, eventId: string, check: (event: any) => boolean): Promise<any> {
  let last: any;
  for (let tries = 0; tries < 500; tries++) {
    last = (await callApi(started.url, started.key, "GET", `/v1/events/${eventId}`)).body;
    if (check(last)) return last;
    await delay(20);
  }
  throw new Error(`the event never reached the expected state; last seen: ${JSON.stringify(last)}`);
}

import { runFixture } from "../fixtures/runner.js";
import { createPaysim, type IntentEvents } from "../paysim.js";
import { createApiClient, type ApiClient } from "./client.js";
import { loadFixture } from "./steps.js";
import { triggerFixturePath } from "./commands/trigger.js";

/** The port real events name in their `checkout_url`: that of `paysim start`. */
const SHOWN_PORT = 7420;

/** At most this many events come back on one page of GET /v1/events. */
const EVENTS_PAGE = 100;
/** What one run of the captured trigger records: created, authorized, captured. */
const EVENTS_PER_RUN = 3;

/**
 * Real events for `paysim check-receiver`, made by the code that makes every event: a paysim
 * in memory that holds no port runs the built-in `payment_intent.captured` trigger fixture
 * `count` times through its own API, and its events are read back through that API. Each run
 * is a payment intent of its own, so no case sends an event another case sent. Their shape
 * cannot drift from what `paysim start` delivers.
 */
export async function sampleIntentEvents(count: number): Promise<IntentEvents[]> {
  if (count * EVENTS_PER_RUN > EVENTS_PAGE) throw new Error(`at most ${Math.floor(EVENTS_PAGE / EVENTS_PER_RUN)} intents at once`);
  const paysim = await createPaysim({ db: ":memory:", listen: false, port: SHOWN_PORT, payouts: "manual" });
  try {
    const client = createApiClient({ url: paysim.url, key: paysim.secretKey }, undefined, (input, init) => Promise.resolve(paysim.app.request(input, init)));
    const fixture = loadFixture(triggerFixturePath("payment_intent.captured"), undefined);
    const intentIds: string[] = [];
    for (let i = 0; i < count; i++) {
      const results = await runFixture(fixture, client);
      intentIds.push(String(results.at(-1)!.response.id));
    }
    return await eventsOf(client, intentIds);
  } finally {
    await paysim.close();
  }
}

/** The authorized and captured events of each intent, as the JSON text a delivery carries. */
async function eventsOf(client: ApiClient, intentIds: readonly string[]): Promise<IntentEvents[]> {
  const page = await client.call<{ data: { type: string; data: { id: string } }[] }>("GET", `/v1/events?limit=${EVENTS_PAGE}`);
  const find = (intentId: string, type: string) => {
    const event = page.data.find((candidate) => candidate.type === type && candidate.data.id === intentId);
    if (!event) throw new Error(`the trigger fixture made no ${type} event for ${intentId}`);
    return JSON.stringify(event);
  };
  return intentIds.map((id) => ({ authorized: find(id, "payment_intent.authorized"), captured: find(id, "payment_intent.captured") }));
}

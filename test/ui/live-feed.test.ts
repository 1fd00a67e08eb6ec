import { describe, expect, it } from "vitest";
import { startLiveFeed, type LiveFeed } from "../../src/ui/live-feed.js";
import type { Printed } from "../../src/ui/model.js";
import { usePaysim } from "../helpers/disposables.js";
import { freshKey, type TestPaysim } from "../helpers/paysim.js";

const CARD = { amount: 5000, currency: "EUR", destination_type: "card", destination_token: "tok_card_fail" };

function eventTypes(printed: readonly Printed[]): string[] {
  return printed.flatMap((line) => (line.kind === "event" ? [line.event.type] : []));
}

describe("the live view's feed", () => {
  it("keeps what the bus announced, in order, until taken; stop() lets go of the bus", async () => {
    const paysim = await usePaysim();
    const feed = startLiveFeed(paysim);
    let news = 0;
    feed.onNews(() => news++);

    await paysim.api("GET", "/v1/payment_intents");
    await paysim.api("GET", "/v1/events");
    expect(feed.hasNews()).toBe(true);
    expect(news).toBe(2);
    expect(feed.take().printed.map((line) => (line.kind === "request" ? line.request.path : line.kind))).toEqual(["/v1/payment_intents", "/v1/events"]);
    expect(feed.hasNews()).toBe(false);
    expect(feed.take().printed).toEqual([]);

    feed.stop();
    await paysim.api("GET", "/v1/payment_intents");
    expect(feed.hasNews()).toBe(false);
    expect(news).toBe(2);
  });

  it("started from onBusReady, hears what jobs that fell due while paysim was down announce before createPaysim resolves", async () => {
    let real = Date.parse("2030-01-01T00:00:00.000Z");
    const first = await usePaysim({ realNow: () => real });
    expect((await first.api("POST", "/v1/payouts", { body: CARD, idempotencyKey: freshKey() })).status).toBe(201);
    await first.close();

    real += 3000; // the move to failed fell due while it was down
    let early: LiveFeed | undefined;
    const second: TestPaysim = await usePaysim({ db: first.dbPath, realNow: () => real, onBusReady: (parts) => void (early = startLiveFeed(parts)) });
    const late = startLiveFeed(second);

    expect(eventTypes(early!.take().printed)).toEqual(["payout.failed"]);
    // A listener attached once the instance is there has missed them.
    expect(eventTypes(late.take().printed)).toEqual([]);
  });
});

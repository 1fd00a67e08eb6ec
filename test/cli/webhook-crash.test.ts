import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { verifySignature } from "../../src/webhooks/sign.js";
import type { StartedPaysim } from "../helpers/cli.js";
import { createdEventId, eventWhen } from "../helpers/child-events.js";
import { usePaysimCli, useReceiver, useTempDir } from "../helpers/disposables.js";
import { callApi, createIntent, clientFor } from "../helpers/paysim.js";

// The real binary (dist/): run `npm run build` before these tests.

const SECRET = "whsec_crash_test_secret_01";

/** A folder for the database; instance.json is written beside it. */
function databaseFolder(): { dir: string; db: string } {
  const dir = useTempDir("paysim-crash-");
  return { dir, db: join(dir, "paysim.db") };
}

function startChild(db: string, forwardTo: string): Promise<StartedPaysim> {
  return usePaysimCli(["--no-ui", "--db", db, "--forward-to", forwardTo, "--webhook-secret", SECRET]);
}

/** SIGKILL: no clean shutdown, nothing flushed beyond what was committed. */
async function kill(started: StartedPaysim): Promise<void> {
  const result = await started.cli.stop("SIGKILL");
  expect(result.signal).toBe("SIGKILL");
}

describe("webhook deliveries survive paysim being killed (SIGKILL)", () => {
  it("keeps a failed delivery's retry across a kill: it is sent after the restart when the clock reaches it, not before", async () => {
    const { dir, db } = databaseFolder();
    const receiver = await useReceiver(200);
    receiver.queue(500);
    const first = await startChild(db, receiver.url);
    const instanceFile = JSON.parse(readFileSync(join(dir, "instance.json"), "utf8"));
    expect(instanceFile.secret_key).toBe(first.key);
    expect(instanceFile.webhook_endpoints).toEqual([{ id: expect.stringMatching(/^we_/), url: receiver.url, secret: SECRET }]);

    const eventId = await createdEventId(first);
    await receiver.waitForRequests(1);
    const failed = await eventWhen(first, eventId, (e) => e.deliveries[0]?.attempts[0]?.status_code === 500);
    const due = Date.parse(failed.deliveries[0].next_attempt_at);
    expect(due).toBe(Date.parse(failed.deliveries[0].attempts[0].attempted_at) + 30_000);
    await kill(first);

    const second = await startChild(db, receiver.url);
    expect(second.key).toBe(first.key);
    const afterRestart = await eventWhen(second, eventId, () => true);
    expect(afterRestart.deliveries).toHaveLength(1);
    expect(afterRestart.deliveries[0]).toMatchObject({ status: "pending", next_attempt_at: failed.deliveries[0].next_attempt_at });
    expect(afterRestart.deliveries[0].attempts).toEqual(failed.deliveries[0].attempts);
    expect(receiver.requests).toHaveLength(1);

    const advanced = await callApi(second.url, second.key, "POST", "/v1/sandbox/clock/advance", { body: { seconds: 30 } });
    expect(advanced.status).toBe(200);
    const [original, retry] = await receiver.waitForRequests(2);
    expect(retry!.body.equals(original!.body)).toBe(true);
    expect(retry!.headers["service-event-id"]).toBe(eventId);
    expect(verifySignature(retry!.body, retry!.headers["service-signature"] as string, SECRET)).toBe(true);

    const delivered = await eventWhen(second, eventId, (e) => e.deliveries[0].status === "succeeded");
    expect(delivered.deliveries[0].attempts.map((a: any) => a.status_code)).toEqual([500, 200]);
    expect(delivered.deliveries[0].next_attempt_at).toBeNull();
    expect(receiver.requests).toHaveLength(2);
  });

  it("sends an attempt cut off by a kill again at once after the restart, and shows the cut-off attempt as interrupted", async () => {
    const { db } = databaseFolder();
    const receiver = await useReceiver(200);
    receiver.queue("hang");
    const first = await startChild(db, receiver.url);
    const eventId = await createdEventId(first);
    await receiver.waitForRequests(1);
    expect(receiver.hangingCount()).toBe(1);
    await kill(first); // while the receiver still holds the request open

    // No clock advance: the restart itself sends it again.
    const second = await startChild(db, receiver.url);
    const [cutOff, again] = await receiver.waitForRequests(2);
    expect(again!.body.equals(cutOff!.body)).toBe(true);
    expect(again!.headers["service-event-id"]).toBe(eventId);
    expect(verifySignature(again!.body, again!.headers["service-signature"] as string, SECRET)).toBe(true);

    const delivered = await eventWhen(second, eventId, (e) => e.deliveries[0]?.status === "succeeded");
    const [interrupted, resent] = delivered.deliveries[0].attempts;
    expect(delivered.deliveries).toHaveLength(1);
    expect(delivered.deliveries[0].attempts).toHaveLength(2);
    expect(interrupted).toMatchObject({ status_code: null, error: expect.stringMatching(/interrupted/) });
    expect(resent).toMatchObject({ status_code: 200, error: null });
    expect(receiver.requests).toHaveLength(2);
  });

  it("records the first attempt with its event: killed right after the create is answered, it shows as interrupted and is sent again", async () => {
    const { db } = databaseFolder();
    let killed = false;
    // An attempt that gets out before the kill never completes; after the restart the receiver answers.
    const receiver = await useReceiver(() => (killed ? 200 : "hang"));
    const first = await startChild(db, receiver.url);
    const intent = await createIntent(clientFor(first.url, first.key));
    await kill(first); // at once: the attempt may be in flight, or not sent yet
    killed = true;

    const second = await startChild(db, receiver.url);
    const events = await callApi(second.url, second.key, "GET", "/v1/events?type=payment_intent.created&limit=1");
    const eventId = events.body.data[0].id;
    expect(events.body.data[0].data.id).toBe(intent.id);
    const delivered = await eventWhen(second, eventId, (e) => e.deliveries[0]?.status === "succeeded");
    expect(delivered.deliveries).toHaveLength(1);
    expect(delivered.deliveries[0].attempts).toEqual([
      { attempted_at: expect.any(String), status_code: null, error: expect.stringMatching(/interrupted/), duration_ms: null, response_body: null, chaos: null },
      { attempted_at: expect.any(String), status_code: 200, error: null, duration_ms: expect.any(Number), response_body: "answered 200", chaos: null },
    ]);
    // Sent once or twice (the cut-off attempt may have reached the receiver), the same signed bytes each time.
    const received = receiver.requests.filter((r) => r.headers["service-event-id"] === eventId);
    expect(received.length === 1 || received.length === 2).toBe(true);
    for (const request of received) {
      expect(request.body.equals(received[0]!.body)).toBe(true);
      expect(verifySignature(request.body, request.headers["service-signature"] as string, SECRET)).toBe(true);
    }
  });
});

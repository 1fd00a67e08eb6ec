import { describe, expect, it } from "vitest";
import type { PaysimConfig } from "../../src/config.js";
import { bannerFacts } from "../../src/cli/banner-facts.js";
import type { PaysimInstance } from "../../src/paysim.js";
import { Database } from "../../src/store/sqlite-driver.js";
import { bannerLines } from "../../src/ui/banner.js";
import { verifySignature } from "../../src/webhooks/sign.js";
import { useCreatedPaysim, useReceiver, useTempPath } from "../helpers/disposables.js";
import { callApi, createIntent, clientFor } from "../helpers/paysim.js";
import type { Receiver } from "../helpers/receiver.js";

function dbFile(): string {
  return useTempPath();
}

/** Stops `instance` before the test starts another on its database. */
async function stop(instance: PaysimInstance): Promise<void> {
  await instance.close();
}

async function receiver(): Promise<Receiver> {
  return useReceiver(200);
}

const endpointsOf = async (instance: PaysimInstance, key = instance.secretKey) =>
  (await callApi(instance.url, key, "GET", "/v1/webhook_endpoints")).body.data as any[];

/** Emits an event and answers the request the receiver got for it, checked against `secret`. */
async function deliveredSignedWith(instance: PaysimInstance, r: Receiver, secret: string, key = instance.secretKey): Promise<void> {
  const before = r.requests.length;
  await createIntent(clientFor(instance.url, key));
  const requests = await r.waitForRequests(before + 1);
  const request = requests[before]!;
  expect(verifySignature(request.body, request.headers["service-signature"] as string, secret)).toBe(true);
  await instance.scheduler.idle();
}

describe("--forward-to endpoints", () => {
  it("registers the URL for the default company with a generated whsec_ secret that later starts on the same database keep", async () => {
    const db = dbFile();
    const r = await receiver();
    const first = await useCreatedPaysim({ db, forwardTo: r.url });
    const [endpoint] = first.forwardEndpoints;
    expect(endpoint!.url).toBe(r.url);
    expect(endpoint!.secret).toMatch(/^whsec_[0-9A-Za-z]{16,}$/);
    expect((await endpointsOf(first)).map((e) => [e.id, e.url, e.secret, e.enabled_events])).toEqual([[endpoint!.id, r.url, endpoint!.secret, ["*"]]]);
    await deliveredSignedWith(first, r, endpoint!.secret);
    const key = first.secretKey;
    await stop(first);

    // Started again without the secret: the same endpoint, the same secret, no duplicate.
    const second = await useCreatedPaysim({ db, forwardTo: r.url, secretKey: key });
    expect(second.forwardEndpoints.map((e) => [e.id, e.secret])).toEqual([[endpoint!.id, endpoint!.secret]]);
    expect(await endpointsOf(second)).toHaveLength(1);
    await deliveredSignedWith(second, r, endpoint!.secret);
    await stop(second);

    // Without --forward-to at all, this run forwards nowhere: the endpoint is gone.
    const third = await useCreatedPaysim({ db, secretKey: key });
    expect(await endpointsOf(third)).toEqual([]);
    expect(third.forwardEndpoints).toEqual([]);
  });

  it("uses the --webhook-secret given, and a later start with another one replaces it", async () => {
    const db = dbFile();
    const r = await receiver();
    const first = await useCreatedPaysim({ db, forwardTo: r.url, webhookSecret: "whsec_ci_given_secret_01" });
    expect(first.forwardEndpoints[0]!.secret).toBe("whsec_ci_given_secret_01");
    expect((await endpointsOf(first))[0].secret).toBe("whsec_ci_given_secret_01");
    await deliveredSignedWith(first, r, "whsec_ci_given_secret_01");
    const key = first.secretKey;
    await stop(first);

    const second = await useCreatedPaysim({ db, forwardTo: r.url, secretKey: key, webhookSecret: "whsec_ci_rotated_secret_02" });
    expect(second.forwardEndpoints.map((e) => e.secret)).toEqual(["whsec_ci_rotated_secret_02"]);
    expect(await endpointsOf(second)).toHaveLength(1);
    await deliveredSignedWith(second, r, "whsec_ci_rotated_secret_02");
    await stop(second);

    const third = await useCreatedPaysim({ db, forwardTo: r.url, secretKey: key });
    expect(third.forwardEndpoints.map((e) => e.secret)).toEqual(["whsec_ci_rotated_secret_02"]);
  });

  it("registers every URL of a repeated --forward-to, all signed with the --webhook-secret", async () => {
    const a = await receiver();
    const b = await receiver();
    const instance = await useCreatedPaysim({ forwardTo: [a.url, b.url], webhookSecret: "whsec_both_endpoints_01" });
    expect(instance.forwardEndpoints.map((e) => e.url)).toEqual([a.url, b.url]);
    await createIntent(clientFor(instance.url, instance.secretKey));
    for (const r of [a, b]) {
      const [request] = await r.waitForRequests(1);
      expect(verifySignature(request!.body, request!.headers["service-signature"] as string, "whsec_both_endpoints_01")).toBe(true);
    }
  });
});

describe("a later start with other --forward-to URLs, or none", () => {
  it("removes the endpoints an earlier --forward-to made that it does not name, and keeps (with their secret) those it names again", async () => {
    const db = dbFile();
    const [a, b, c] = [await receiver(), await receiver(), await receiver()];
    const first = await useCreatedPaysim({ db, forwardTo: [a.url, b.url] });
    const [endpointA, endpointB] = first.forwardEndpoints;
    const key = first.secretKey;
    await stop(first);

    const second = await useCreatedPaysim({ db, secretKey: key, forwardTo: [b.url, c.url] });
    expect(second.forwardEndpoints.map((e) => [e.url, e.id === endpointB!.id])).toEqual([
      [b.url, true],
      [c.url, false],
    ]);
    expect((await endpointsOf(second)).map((e) => [e.url, e.secret])).toEqual([
      [b.url, endpointB!.secret],
      [c.url, second.forwardEndpoints[1]!.secret],
    ]);
    expect((await callApi(second.url, key, "GET", `/v1/webhook_endpoints/${endpointA!.id}`)).status).toBe(404);

    // An event now goes to b and c only.
    await createIntent(clientFor(second.url, key));
    await b.waitForRequests(1);
    await c.waitForRequests(1);
    await second.scheduler.idle();
    expect(a.requests).toHaveLength(0);
  });

  it("leaves the endpoints made through the API and by a config file alone", async () => {
    const db = dbFile();
    const [api, fromConfig, forwarded] = [await receiver(), await receiver(), await receiver()];
    const config = (): PaysimConfig => ({
      companies: [{ name: "Acme", currency: "EUR", secret_key: "sk_test_acme_keep_0001", webhook_endpoints: [{ url: fromConfig.url, enabled_events: ["*"] }] }],
    });
    const first = await useCreatedPaysim({ db, config: config(), forwardTo: forwarded.url });
    const made = await callApi(first.url, first.secretKey, "POST", "/v1/webhook_endpoints", { body: { url: api.url } });
    expect(made.status).toBe(201);
    await stop(first);

    const second = await useCreatedPaysim({ db, config: config() });
    expect((await endpointsOf(second)).map((e) => e.url)).toEqual([fromConfig.url, api.url]);
  });

  it("reuses an API-made endpoint for the same URL and does not remove it later", async () => {
    const db = dbFile();
    const r = await receiver();
    const first = await useCreatedPaysim({ db });
    const made = (await callApi(first.url, first.secretKey, "POST", "/v1/webhook_endpoints", { body: { url: r.url } })).body;
    const key = first.secretKey;
    await stop(first);

    const second = await useCreatedPaysim({ db, secretKey: key, forwardTo: r.url });
    expect(second.forwardEndpoints.map((e) => [e.id, e.secret])).toEqual([[made.id, made.secret]]);
    await stop(second);
    const third = await useCreatedPaysim({ db, secretKey: key });
    expect((await endpointsOf(third)).map((e) => e.id)).toEqual([made.id]);
  });

  it("keeps a --forward-to endpoint that the config now declares", async () => {
    const db = dbFile();
    const r = await receiver();
    const config: PaysimConfig = {
      companies: [{ name: "Acme", currency: "EUR", secret_key: "sk_test_acme_claim_0001", webhook_endpoints: [{ url: r.url, enabled_events: ["*"] }] }],
    };
    const first = await useCreatedPaysim({ db, config: { companies: [{ ...config.companies[0]!, webhook_endpoints: [] }] }, forwardTo: r.url });
    const [endpoint] = first.forwardEndpoints;
    await stop(first);
    const second = await useCreatedPaysim({ db, config });
    await stop(second);
    const third = await useCreatedPaysim({ db, config });
    expect((await endpointsOf(third)).map((e) => [e.id, e.url])).toEqual([[endpoint!.id, r.url]]);
  });

  it("stops the pending deliveries of a removed endpoint, as DELETE does: failed, no next attempt, nothing more sent", async () => {
    const db = dbFile();
    const r = await receiver();
    r.queue(500);
    const first = await useCreatedPaysim({ db, forwardTo: r.url, payouts: "manual" });
    const key = first.secretKey;
    await createIntent(clientFor(first.url, key));
    await r.waitForRequests(1);
    await first.scheduler.idle();
    const eventId = (await callApi(first.url, key, "GET", "/v1/events?limit=1")).body.data[0].id;
    const before = (await callApi(first.url, key, "GET", `/v1/events/${eventId}`)).body.deliveries[0];
    expect(before).toMatchObject({ status: "pending", next_attempt_at: expect.any(String) });
    await stop(first);

    const second = await useCreatedPaysim({ db, secretKey: key });
    const after = (await callApi(second.url, key, "GET", `/v1/events/${eventId}`)).body.deliveries[0];
    expect(after).toMatchObject({ status: "failed", next_attempt_at: null });
    expect(after.attempts).toHaveLength(1);
    await second.advanceClock(7 * 24 * 3600);
    await second.scheduler.idle();
    expect(r.requests).toHaveLength(1);
  });
});

describe("endpoints declared in the config", () => {
  const config = (url: string, secret?: string): PaysimConfig => ({
    companies: [
      {
        name: "Acme",
        currency: "EUR",
        secret_key: "sk_test_acme_forward_0001",
        webhook_endpoints: [{ url, enabled_events: ["*"], ...(secret === undefined ? {} : { secret }) }],
      },
    ],
  });

  it("uses the config's secret, and starting again with the same config changes nothing", async () => {
    const db = dbFile();
    const r = await receiver();
    const first = await useCreatedPaysim({ db, config: config(r.url, "whsec_acme_config_0001") });
    const [endpoint] = await endpointsOf(first);
    expect(endpoint).toMatchObject({ url: r.url, secret: "whsec_acme_config_0001", enabled_events: ["*"] });
    await deliveredSignedWith(first, r, "whsec_acme_config_0001");
    await stop(first);

    const second = await useCreatedPaysim({ db, config: config(r.url, "whsec_acme_config_0001") });
    expect((await endpointsOf(second)).map((e) => [e.id, e.secret])).toEqual([[endpoint.id, "whsec_acme_config_0001"]]);
  });

  it("generates a secret when the config gives none, and keeps it on the next start", async () => {
    const db = dbFile();
    const r = await receiver();
    const first = await useCreatedPaysim({ db, config: config(r.url) });
    const [endpoint] = await endpointsOf(first);
    expect(endpoint.secret).toMatch(/^whsec_/);
    await stop(first);

    const second = await useCreatedPaysim({ db, config: config(r.url) });
    expect((await endpointsOf(second)).map((e) => [e.id, e.secret])).toEqual([[endpoint.id, endpoint.secret]]);
    await deliveredSignedWith(second, r, endpoint.secret);
  });
});

describe("endpoints from before paysim marked what --forward-to made", () => {
  /** What migration 050 does to a live endpoint of an older database: made before the marking, maker unknown. */
  function markedBeforeTheMarking(db: string, id: string): void {
    const sqlite = new Database(db);
    sqlite.prepare("UPDATE webhook_endpoints SET from_forward_to = 2 WHERE id = ?").run(id);
    sqlite.close();
  }

  it("are kept by a start that does not name them, said once in the banner, then counted as made through the API", async () => {
    const db = dbFile();
    const [old, other] = [await receiver(), await receiver()];
    const first = await useCreatedPaysim({ db, forwardTo: old.url });
    const key = first.secretKey;
    const made = first.forwardEndpoints[0]!;
    await stop(first);
    markedBeforeTheMarking(db, made.id);

    const second = await useCreatedPaysim({ db, secretKey: key, forwardTo: other.url });
    expect(second.keptFromBeforeMarking.map((e) => [e.id, e.url])).toEqual([[made.id, old.url]]);
    const banner = bannerLines(bannerFacts(second, { db, host: "127.0.0.1" }));
    expect(banner.filter((line) => line.startsWith("  notice"))).toEqual([
      `  notice    kept webhook ${made.id} (${old.url}): it is older than paysim's record of which endpoints --forward-to made, so no start removes it; if an earlier --forward-to made it, remove it with: paysim endpoints remove ${made.id}`,
    ]);
    expect((await endpointsOf(second)).map((e) => e.url).sort()).toEqual([old.url, other.url].sort());
    await stop(second);

    const third = await useCreatedPaysim({ db, secretKey: key });
    expect(third.keptFromBeforeMarking).toEqual([]);
    expect((await endpointsOf(third)).map((e) => e.id)).toEqual([made.id]);
  });

  it("is adopted by a start that names its URL, so a later start without it removes it", async () => {
    const db = dbFile();
    const r = await receiver();
    const first = await useCreatedPaysim({ db, forwardTo: r.url });
    const key = first.secretKey;
    const made = first.forwardEndpoints[0]!;
    await stop(first);
    markedBeforeTheMarking(db, made.id);

    const second = await useCreatedPaysim({ db, secretKey: key, forwardTo: r.url });
    expect(second.keptFromBeforeMarking).toEqual([]);
    expect(second.forwardEndpoints.map((e) => [e.id, e.secret])).toEqual([[made.id, made.secret]]);
    await stop(second);

    const third = await useCreatedPaysim({ db, secretKey: key });
    expect(await endpointsOf(third)).toEqual([]);
  });
});

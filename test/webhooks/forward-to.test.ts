import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { PaysimConfig } from "../../src/config.js";
import { createPaysim, type PaysimInstance, type PaysimOptions } from "../../src/paysim.js";
import { verifySignature } from "../../src/webhooks/sign.js";
import { callApi, createIntent, clientFor, tempDir } from "../helpers/paysim.js";
import { startReceiver, type Receiver } from "../helpers/receiver.js";

const open: PaysimInstance[] = [];
const cleanups: (() => void)[] = [];
const receivers: Receiver[] = [];
afterEach(async () => {
  for (const instance of open.splice(0)) await instance.close();
  for (const r of receivers.splice(0)) await r.close();
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function dbFile(): string {
  const { dir, cleanup } = tempDir();
  cleanups.push(cleanup);
  return join(dir, "paysim.db");
}

async function start(options: PaysimOptions): Promise<PaysimInstance> {
  const instance = await createPaysim({ port: 0, ...options });
  open.push(instance);
  return instance;
}

async function stop(instance: PaysimInstance): Promise<void> {
  await instance.close();
  open.splice(open.indexOf(instance), 1);
}

async function receiver(): Promise<Receiver> {
  const r = await startReceiver(200);
  receivers.push(r);
  return r;
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
    const first = await start({ db, forwardTo: r.url });
    const [endpoint] = first.forwardEndpoints;
    expect(endpoint!.url).toBe(r.url);
    expect(endpoint!.secret).toMatch(/^whsec_[0-9A-Za-z]{16,}$/);
    expect((await endpointsOf(first)).map((e) => [e.id, e.url, e.secret, e.enabled_events])).toEqual([[endpoint!.id, r.url, endpoint!.secret, ["*"]]]);
    await deliveredSignedWith(first, r, endpoint!.secret);
    const key = first.secretKey;
    await stop(first);

    // Started again without the secret: the same endpoint, the same secret, no duplicate.
    const second = await start({ db, forwardTo: r.url, secretKey: key });
    expect(second.forwardEndpoints.map((e) => [e.id, e.secret])).toEqual([[endpoint!.id, endpoint!.secret]]);
    expect(await endpointsOf(second)).toHaveLength(1);
    await deliveredSignedWith(second, r, endpoint!.secret);
    await stop(second);

    // And without --forward-to at all, the endpoint is still there.
    const third = await start({ db, secretKey: key });
    expect((await endpointsOf(third)).map((e) => e.secret)).toEqual([endpoint!.secret]);
  });

  it("uses the --webhook-secret given, and a later start with another one replaces it", async () => {
    const db = dbFile();
    const r = await receiver();
    const first = await start({ db, forwardTo: r.url, webhookSecret: "whsec_ci_given_secret_01" });
    expect(first.forwardEndpoints[0]!.secret).toBe("whsec_ci_given_secret_01");
    expect((await endpointsOf(first))[0].secret).toBe("whsec_ci_given_secret_01");
    await deliveredSignedWith(first, r, "whsec_ci_given_secret_01");
    const key = first.secretKey;
    await stop(first);

    const second = await start({ db, forwardTo: r.url, secretKey: key, webhookSecret: "whsec_ci_rotated_secret_02" });
    expect(second.forwardEndpoints.map((e) => e.secret)).toEqual(["whsec_ci_rotated_secret_02"]);
    expect(await endpointsOf(second)).toHaveLength(1);
    await deliveredSignedWith(second, r, "whsec_ci_rotated_secret_02");
    await stop(second);

    const third = await start({ db, forwardTo: r.url, secretKey: key });
    expect(third.forwardEndpoints.map((e) => e.secret)).toEqual(["whsec_ci_rotated_secret_02"]);
  });

  it("registers every URL of a repeated --forward-to, all signed with the --webhook-secret", async () => {
    const a = await receiver();
    const b = await receiver();
    const instance = await start({ forwardTo: [a.url, b.url], webhookSecret: "whsec_both_endpoints_01" });
    expect(instance.forwardEndpoints.map((e) => e.url)).toEqual([a.url, b.url]);
    await createIntent(clientFor(instance.url, instance.secretKey));
    for (const r of [a, b]) {
      const [request] = await r.waitForRequests(1);
      expect(verifySignature(request!.body, request!.headers["service-signature"] as string, "whsec_both_endpoints_01")).toBe(true);
    }
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
    const first = await start({ db, config: config(r.url, "whsec_acme_config_0001") });
    const [endpoint] = await endpointsOf(first);
    expect(endpoint).toMatchObject({ url: r.url, secret: "whsec_acme_config_0001", enabled_events: ["*"] });
    await deliveredSignedWith(first, r, "whsec_acme_config_0001");
    await stop(first);

    const second = await start({ db, config: config(r.url, "whsec_acme_config_0001") });
    expect((await endpointsOf(second)).map((e) => [e.id, e.secret])).toEqual([[endpoint.id, "whsec_acme_config_0001"]]);
  });

  it("generates a secret when the config gives none, and keeps it on the next start", async () => {
    const db = dbFile();
    const r = await receiver();
    const first = await start({ db, config: config(r.url) });
    const [endpoint] = await endpointsOf(first);
    expect(endpoint.secret).toMatch(/^whsec_/);
    await stop(first);

    const second = await start({ db, config: config(r.url) });
    expect((await endpointsOf(second)).map((e) => [e.id, e.secret])).toEqual([[endpoint.id, endpoint.secret]]);
    await deliveredSignedWith(second, r, endpoint.secret);
  });
});

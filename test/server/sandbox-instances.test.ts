// POST/GET/DELETE /v1/sandbox/instances over real HTTP: each instance a whole paysim of its own,
// on its own port, sharing nothing with the paysim that started it.
import { connect } from "node:net";
import { describe, expect, it } from "vitest";
import { serverFlagsProblem, type ServerFlags } from "../../src/cli/server-options.js";
import { parseConfig } from "../../src/config.js";
import { verifySignature } from "../../src/webhooks/sign.js";
import { useReceiver, usePaysim } from "../helpers/disposables.js";
import { expectApiError } from "../helpers/errors.js";
import { clientFor, freshKey, startTestPaysim, type TestPaysim } from "../helpers/paysim.js";

/** Whether something accepts a connection on the URL's port (a stopped instance's port is closed). */
function accepts(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port) });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

const create = (paysim: Pick<TestPaysim, "api">, body: unknown = {}, idempotencyKey = freshKey(), key?: string) =>
  paysim.api("POST", "/v1/sandbox/instances", { body, idempotencyKey, ...(key === undefined ? {} : { key }) });

describe("an instance started over HTTP", () => {
  it("is a whole paysim of its own: its key works there and nowhere else, its data stays there, and stopping it closes its port", async () => {
    const parent = await usePaysim();
    const created = await create(parent, { name: "Worker 1", currency: "USD", secret_key: "sk_test_worker_1", payouts: "manual" });
    expect(created.status, created.text).toBe(201);
    const instance = created.body;
    expect(instance).toMatchObject({ object: "instance", secret_key: "sk_test_worker_1", signing_secret: null, request_id: created.headers.get("request-id") });
    expect(instance.id).toMatch(/^ins_[0-9A-Za-z]{24}$/);
    expect(instance.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(instance.url).not.toBe(parent.url);
    expect(instance.dashboard_login_url.startsWith(`${instance.url}/dashboard/login/`)).toBe(true);

    // It serves at once, under its own key, with the company the body named.
    expect((await fetch(`${instance.url}/health`)).status).toBe(200);
    const child = clientFor(instance.url, instance.secret_key);
    const intent = await child.api("POST", "/v1/payment_intents", { body: { amount: 1000 }, idempotencyKey: freshKey() });
    expect(intent.status, intent.text).toBe(201);
    expect(intent.body.currency).toBe("USD");
    expect(intent.body.checkout_url.startsWith(`${instance.url}/checkout/`)).toBe(true);

    // Nothing is shared: neither key opens the other's door, and the intent exists only in the instance.
    // Each refusal says where the keys of the paysim asked come from.
    const parentKeyOnInstance = await clientFor(instance.url, parent.secretKey).api("GET", "/v1/payment_intents");
    expectApiError(parentKeyOnInstance, 401, "unauthorized");
    expect(parentKeyOnInstance.body.error.message).toMatch(
      /this paysim is an instance .*POST \/v1\/sandbox\/instances.*its key is the secret_key that call answered/,
    );
    const instanceKeyOnParent = await parent.api("GET", "/v1/payment_intents", { key: instance.secret_key });
    expectApiError(instanceKeyOnParent, 401, "unauthorized");
    expect(instanceKeyOnParent.body.error.message).toMatch(
      /paysim start printed or was given \(--secret-key.*An instance from POST \/v1\/sandbox\/instances has its own key/,
    );
    expectApiError(await parent.api("GET", `/v1/payment_intents/${intent.body.id}`), 404, "not_found");
    expect((await parent.api("GET", "/v1/payment_intents")).body.data).toEqual([]);
    await child.api("POST", "/v1/sandbox/clock/advance", { body: { seconds: 86_400 } });
    expect((await parent.api("GET", "/v1/sandbox/clock")).body.offset_seconds).toBe(0);

    const listed = await parent.api("GET", "/v1/sandbox/instances");
    expect(listed.status).toBe(200);
    const { dashboard_login_url: _link, request_id: _id, ...shown } = instance;
    expect(listed.body).toMatchObject({ object: "list", data: [shown], has_more: false });

    const stopped = await parent.api("DELETE", `/v1/sandbox/instances/${instance.id}`);
    expect(stopped.body).toMatchObject({ id: instance.id, object: "instance", deleted: true });
    expect(await accepts(instance.url)).toBe(false);
    expect((await parent.api("GET", "/v1/sandbox/instances")).body.data).toEqual([]);
    expectApiError(await parent.api("DELETE", `/v1/sandbox/instances/${instance.id}`), 404, "not_found");
    expectApiError(await parent.api("DELETE", "/v1/sandbox/instances/ins_unknown"), 404, "not_found");
  });

  it("delivers its events to its forward_to URLs, signed with the webhook_secret given", async () => {
    const parent = await usePaysim();
    const receiver = await useReceiver(200);
    const instance = (await create(parent, { forward_to: [receiver.url], webhook_secret: "whsec_worker", chaos: { seed: 7 } })).body;
    expect(instance.signing_secret).toBe("whsec_worker");
    const intent = await clientFor(instance.url, instance.secret_key).api("POST", "/v1/payment_intents", { body: { amount: 700 }, idempotencyKey: freshKey() });
    const [delivered] = await receiver.waitForRequests(1);
    expect(JSON.parse(delivered!.body.toString("utf8"))).toMatchObject({ type: "payment_intent.created", data: { id: intent.body.id } });
    expect(verifySignature(delivered!.body, String(delivered!.headers["service-signature"]), "whsec_worker")).toBe(true);
  });

  it("uses a secret_key and webhook_secret with 13 or more digits in a row exactly as given, where a card number in its name is still masked", async () => {
    const parent = await usePaysim();
    const receiver = await useReceiver(200);
    const key = "sk_test_ci_1732212345678901234";
    const secret = "whsec_ci_7302212345678901234";
    const created = await create(parent, { name: "Shop 4242424242424242", secret_key: key, webhook_secret: secret, forward_to: [receiver.url] });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ secret_key: key, signing_secret: secret });
    expect((await parent.api("GET", "/v1/sandbox/instances")).body.data).toMatchObject([{ secret_key: key, signing_secret: secret }]);

    // The key chosen opens the instance; the key masking would have made of it does not.
    const intent = await clientFor(created.body.url, key).api("POST", "/v1/payment_intents", { body: { amount: 700 }, idempotencyKey: freshKey() });
    expect(intent.status, intent.text).toBe(201);
    expectApiError(await clientFor(created.body.url, "sk_test_ci_***************1234").api("GET", "/v1/payment_intents"), 401, "unauthorized");
    const [delivered] = await receiver.waitForRequests(1);
    expect(verifySignature(delivered!.body, String(delivered!.headers["service-signature"]), secret)).toBe(true);

    // The same body's other text is masked as any: its sign-in page names the company with the card number's last four only.
    const page = await (await fetch(created.body.dashboard_login_url)).text();
    expect(page).toContain("Shop ************4242");
    expect(page).not.toContain("4242424242424242");
  });

  it("is another company's to see and stop: 404 for the second company, which lists only its own", async () => {
    const config = {
      companies: [
        { name: "Acme", secret_key: "sk_test_acme" },
        { name: "Globex", secret_key: "sk_test_globex" },
      ],
    };
    const parent = await usePaysim({ config });
    const acme = (await create(parent)).body;
    const globex = (await create(parent, {}, freshKey(), "sk_test_globex")).body;
    expect((await parent.api("GET", "/v1/sandbox/instances", { key: "sk_test_globex" })).body.data.map((i: { id: string }) => i.id)).toEqual([globex.id]);
    expectApiError(await parent.api("DELETE", `/v1/sandbox/instances/${acme.id}`, { key: "sk_test_globex" }), 404, "not_found");
    expect(await accepts(acme.url)).toBe(true);
  });

  it("is replayed for the same Idempotency-Key and body (one instance, not two, even sent at once), refused with 409 for another body", async () => {
    const parent = await usePaysim();
    const key = freshKey();
    const [first, second] = await Promise.all([create(parent, { name: "Once" }, key), create(parent, { name: "Once" }, key)]);
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(second.text).toBe(first.text);
    const again = await create(parent, { name: "Once" }, key);
    expect(again.text).toBe(first.text);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect((await parent.api("GET", "/v1/sandbox/instances")).body.data.map((i: { id: string }) => i.id)).toEqual([first.body.id]);
    expectApiError(await create(parent, { name: "Twice" }, key), 409, "idempotency_conflict");
    // As for every keyed call, the key's earlier answer is looked up before the body is validated (docs/api.md, "Errors").
    expectApiError(await create(parent, { currency: "XXX" }, key), 409, "idempotency_conflict");
    expectApiError(await create(parent, { currency: "XXX" }), 400, "invalid_request", "currency");
    expectApiError(await parent.api("POST", "/v1/sandbox/instances", { body: {} }), 400, "invalid_request", "Idempotency-Key");
  });

  it(`runs at most 64 at once: the 65th is refused with instance_limit until one stops`, async () => {
    const parent = await usePaysim();
    const started = await Promise.all(Array.from({ length: 64 }, () => create(parent)));
    expect(started.map((answer) => answer.status)).toEqual(Array(64).fill(201));
    expect(new Set(started.map((answer) => answer.body.url)).size).toBe(64);
    const refused = await create(parent);
    expectApiError(refused, 400, "instance_limit");
    expect(refused.body.error.message).toMatch(/At most 64 instances run at once for a company/);
    await parent.api("DELETE", `/v1/sandbox/instances/${started[0]!.body.id}`);
    expect((await create(parent)).status).toBe(201);
  });

  it("counts the 64 per company: one company at its limit leaves another its own 64", async () => {
    const parent = await usePaysim({
      config: {
        companies: [
          { name: "Acme", secret_key: "sk_test_instances_acme_0001", webhook_endpoints: [] },
          { name: "Globex", secret_key: "sk_test_instances_globex_001", webhook_endpoints: [] },
        ],
      },
    });
    const acme = Array.from({ length: 64 }, () => create(parent, {}, freshKey(), "sk_test_instances_acme_0001"));
    expect((await Promise.all(acme)).map((answer) => answer.status)).toEqual(Array(64).fill(201));
    expectApiError(await create(parent, {}, freshKey(), "sk_test_instances_acme_0001"), 400, "instance_limit");
    const globex = await Promise.all(Array.from({ length: 64 }, () => create(parent, {}, freshKey(), "sk_test_instances_globex_001")));
    expect(globex.map((answer) => answer.status)).toEqual(Array(64).fill(201));
    expectApiError(await create(parent, {}, freshKey(), "sk_test_instances_globex_001"), 400, "instance_limit");
  });

  it("cannot start instances of its own: nested_instance", async () => {
    const parent = await usePaysim();
    const instance = (await create(parent)).body;
    const nested = await create(clientFor(instance.url, instance.secret_key));
    expectApiError(nested, 400, "nested_instance");
    expect(nested.body.error.message).toMatch(/cannot start instances of its own/);
  });

  it("stops with the paysim that started it: close() closes every instance's port", async () => {
    const parent = await startTestPaysim({ db: ":memory:" });
    const instances = await Promise.all([create(parent), create(parent)]).then((answers) => answers.map((answer) => answer.body));
    for (const instance of instances) expect(await accepts(instance.url)).toBe(true);
    await parent.dispose();
    for (const instance of instances) expect(await accepts(instance.url)).toBe(false);
  });
});

describe("the body of POST /v1/sandbox/instances", () => {
  // Each start option as `paysim start` takes it (the flag) and as the body does (the field).
  const startCases: { name: string; flags: Partial<ServerFlags>; body: Record<string, unknown>; param: string }[] = [
    { name: "a malformed key", flags: { secretKey: "pk_live_x" }, body: { secret_key: "pk_live_x" }, param: "secret_key" },
    { name: "a malformed signing secret", flags: { webhookSecret: "secret" }, body: { webhook_secret: "secret" }, param: "webhook_secret" },
    {
      name: "a forward_to URL that is not http",
      flags: { forwardTo: ["ftp://example.com/hooks"] },
      body: { forward_to: ["ftp://example.com/hooks"] },
      param: "forward_to",
    },
    { name: "chaos without forward_to", flags: { chaos: "duplicate=0.5" }, body: { chaos: "duplicate=0.5" }, param: "chaos" },
    {
      name: "a bad chaos spec",
      flags: { chaos: "duplicate=2", forwardTo: ["http://127.0.0.1:9/h"] },
      body: { chaos: "duplicate=2", forward_to: ["http://127.0.0.1:9/h"] },
      param: "chaos",
    },
  ];
  const FIELD_OF_FLAG: Record<string, string> = {
    "--secret-key": "secret_key",
    "--webhook-secret": "webhook_secret",
    "--forward-to": "forward_to",
    "--chaos": "chaos",
  };

  it.each(startCases)("refuses $name with paysim start's words, naming the field", async ({ flags, body, param }) => {
    const parent = await usePaysim();
    const refused = await create(parent, body);
    expectApiError(refused, 400, "invalid_request", param);
    const startSays = serverFlagsProblem({ timeScale: 1, payouts: "auto", webhookTimeout: 20000, port: 0, host: "127.0.0.1", db: ":memory:", ...flags })!;
    expect(refused.body.error.message).toBe(startSays.replace(/^--[a-z-]+/, (flag) => FIELD_OF_FLAG[flag]!));
    expect((await parent.api("GET", "/v1/sandbox/instances")).body.data).toEqual([]);
  });

  it.each([
    ["name", ""],
    ["currency", "eur"],
    ["currency", 978],
  ])("refuses a config file's bad company %s (%j) with the config's words, naming the field", async (field, value) => {
    const parent = await usePaysim();
    const refused = await create(parent, { [field]: value });
    expectApiError(refused, 400, "invalid_request", field);
    let configSays = "";
    try {
      parseConfig({ companies: [{ name: "A", [field]: value }] }, "paysim.json");
    } catch (error) {
      configSays = (error as Error).message;
    }
    expect(configSays).toBe(`Invalid config file paysim.json: companies[0].${refused.body.error.message.replace(/\.$/, "")}.`);
  });

  it.each([
    [{ time_scale: 0 }, "time_scale", "time_scale must be a number greater than 0 and at most 1000000, e.g. 60."],
    [{ time_scale: "60" }, "time_scale", "time_scale must be a number greater than 0 and at most 1000000 (got a string)."],
    [{ payouts: "sometimes" }, "payouts", "payouts must be one of auto, manual."],
    [{ forward_to: "http://127.0.0.1:9/h" }, "forward_to", "forward_to must be a list of URLs (got a string)."],
    [{ colour: "red" }, "colour", 'Unknown field "colour": remove it or check its spelling.'],
  ])("refuses %j naming %s", async (body, param, message) => {
    const parent = await usePaysim();
    const refused = await create(parent, body);
    expectApiError(refused, 400, "invalid_request", param);
    expect(refused.body.error.message).toBe(message);
  });
});

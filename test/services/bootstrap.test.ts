import { Database } from "../../src/store/sqlite-driver.js";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { PaysimConfig } from "../../src/config.js";
import { ConfigError } from "../../src/domain/start-inputs.js";
import { createPaysim } from "../../src/paysim.js";
import { NewerDatabaseError } from "../../src/store/errors.js";
import { useCreatedPaysim, useTempDir } from "../helpers/disposables.js";
import { callApi, clientFor, createIntent } from "../helpers/paysim.js";

const folder = () => useTempDir("paysim-boot-");

/** Everything the bootstrap writes, read straight from the file. */
function snapshot(dbPath: string) {
  const db = new Database(dbPath, { readonly: true });
  try {
    return {
      companies: db.prepare("SELECT * FROM companies ORDER BY id").all(),
      keys: db.prepare("SELECT * FROM api_keys ORDER BY key_hash").all(),
      endpoints: db.prepare("SELECT * FROM webhook_endpoints ORDER BY seq").all(),
    };
  } finally {
    db.close();
  }
}

const CONFIG: PaysimConfig = {
  companies: [
    {
      name: "Acme",
      currency: "EUR",
      secret_key: "sk_test_acme_boot_0001",
      webhook_endpoints: [
        { url: "http://127.0.0.1:9/acme", enabled_events: ["*"] },
        { url: "http://127.0.0.1:9/acme-fixed", secret: "whsec_fixed_secret_0001", enabled_events: ["payment_intent.captured"] },
      ],
    },
    { name: "Globex", currency: "USD", secret_key: "sk_test_globex_boot_0001", webhook_endpoints: [] },
    { name: "Initech", currency: "GBP", webhook_endpoints: [] },
  ],
};

describe("a bad config", () => {
  const BAD: [string, string, string][] = [
    ["a bad currency", JSON.stringify({ companies: [{ name: "A", currency: "eur" }] }), "companies[0].currency"],
    ["an unknown field", JSON.stringify({ companies: [{ name: "A", colour: "red" }] }), "companies[0].colour"],
    ["duplicate names", JSON.stringify({ companies: [{ name: "A" }, { name: "A" }] }), "companies[1].name"],
    ["a bad secret_key", JSON.stringify({ companies: [{ name: "A", secret_key: "nope" }] }), "companies[0].secret_key"],
    ["a file that is not JSON", "companies: A", "not valid JSON"],
  ];

  it.each(BAD)("with %s is refused naming the file and field, and no database is created", async (_name, content, field) => {
    const dir = folder();
    const configPath = join(dir, "paysim.config.json");
    writeFileSync(configPath, content);
    const dbPath = join(dir, "data", "paysim.db");
    const attempt = createPaysim({ port: 0, db: dbPath, config: configPath });
    await expect(attempt).rejects.toThrow(ConfigError);
    await expect(attempt).rejects.toThrow(configPath);
    await expect(attempt).rejects.toThrow(field);
    expect(existsSync(dbPath)).toBe(false);
  });

  it("that is missing is refused naming the file, and no database is created", async () => {
    const dir = folder();
    const configPath = join(dir, "missing.json");
    const dbPath = join(dir, "paysim.db");
    await expect(createPaysim({ port: 0, db: dbPath, config: configPath })).rejects.toThrow(configPath);
    expect(existsSync(dbPath)).toBe(false);
  });

  it.each(BAD)("with %s leaves an existing database byte for byte as it was", async (_name, content) => {
    const dir = folder();
    const dbPath = join(dir, "paysim.db");
    const first = await useCreatedPaysim({ db: dbPath, config: CONFIG });
    await createIntent(clientFor(first.url, first.secretKey));
    await first.close();
    const before = readFileSync(dbPath);
    const configPath = join(dir, "bad.json");
    writeFileSync(configPath, content);
    await expect(createPaysim({ port: 0, db: dbPath, config: configPath })).rejects.toThrow(ConfigError);
    expect(readFileSync(dbPath).equals(before)).toBe(true);
  });

  it("given as an object is refused the same way, before the database is touched", async () => {
    const dbPath = join(folder(), "paysim.db");
    const bad = { companies: [{ name: "A", currency: "usd" }] } as unknown as PaysimConfig;
    await expect(createPaysim({ port: 0, db: dbPath, config: bad })).rejects.toThrow(/\(options\.config\).*companies\[0\]\.currency/);
    expect(existsSync(dbPath)).toBe(false);
  });

  it("that hands one company's key to another company is refused, and nothing is written", async () => {
    const dbPath = join(folder(), "paysim.db");
    await (await useCreatedPaysim({ db: dbPath, config: CONFIG })).close();
    const before = snapshot(dbPath);
    const stolen: PaysimConfig = {
      companies: [
        {
          name: "Newcomer",
          currency: "EUR",
          secret_key: "sk_test_brand_new_0001",
          webhook_endpoints: [{ url: "http://127.0.0.1:9/new", enabled_events: ["*"] }],
        },
        { name: "Thief", currency: "EUR", secret_key: "sk_test_globex_boot_0001", webhook_endpoints: [] },
      ],
    };
    const attempt = createPaysim({ port: 0, db: dbPath, config: stolen });
    await expect(attempt).rejects.toThrow(ConfigError);
    await expect(attempt).rejects.toThrow(/"Thief".*"Globex"/);
    expect(snapshot(dbPath)).toEqual(before);
  });

  it("a --secret-key that belongs to another company is refused, and nothing is written", async () => {
    const dbPath = join(folder(), "paysim.db");
    await (await useCreatedPaysim({ db: dbPath, config: CONFIG })).close();
    const before = snapshot(dbPath);
    await expect(
      createPaysim({
        port: 0,
        db: dbPath,
        config: { companies: [{ name: "Other", currency: "EUR", webhook_endpoints: [] }] },
        secretKey: "sk_test_acme_boot_0001",
      }),
    ).rejects.toThrow(ConfigError);
    expect(snapshot(dbPath)).toEqual(before);
  });
});

describe("a database from a newer paysim", () => {
  it("is refused with NewerDatabaseError and left as it was", async () => {
    const dbPath = join(folder(), "paysim.db");
    await (await useCreatedPaysim({ db: dbPath })).close();
    const raw = new Database(dbPath);
    raw.pragma("user_version = 9990");
    raw.close();
    const before = readFileSync(dbPath);
    await expect(createPaysim({ port: 0, db: dbPath })).rejects.toThrow(NewerDatabaseError);
    expect(readFileSync(dbPath).equals(before)).toBe(true);
  });
});

describe("starting twice with the same config and database", () => {
  it("is a no-op: same companies, same keys working, same endpoints and signing secrets, data kept", async () => {
    const dbPath = join(folder(), "paysim.db");
    const first = await useCreatedPaysim({ db: dbPath, config: CONFIG });
    const intent = await createIntent(clientFor(first.url, "sk_test_globex_boot_0001"));
    const firstView = first.companies.map((c) => ({ company: c.company, endpoints: c.endpoints }));
    await first.close();
    const before = snapshot(dbPath);

    const second = await useCreatedPaysim({ db: dbPath, config: CONFIG });
    expect(second.companies.map((c) => ({ company: c.company, endpoints: c.endpoints }))).toEqual(firstView);
    const read = await callApi(second.url, "sk_test_globex_boot_0001", "GET", `/v1/payment_intents/${intent.id}`);
    expect(read.status).toBe(200);
    expect(read.body.currency).toBe("USD");
    expect((await callApi(second.url, "sk_test_acme_boot_0001", "GET", "/v1/payment_intents")).status).toBe(200);
    // A running paysim holds the file's lock: the file is read once it has stopped.
    await second.close();
    expect(snapshot(dbPath)).toEqual(before);
  });

  it("gives the declared companies their names, currencies, keys and endpoints, the first as default", async () => {
    const instance = await useCreatedPaysim({ db: join(folder(), "paysim.db"), config: CONFIG });
    expect(instance.companies.map((c) => [c.company.name, c.company.currency, c.company.is_default, c.secretKey])).toEqual([
      ["Acme", "EUR", 1, "sk_test_acme_boot_0001"],
      ["Globex", "USD", 0, "sk_test_globex_boot_0001"],
      ["Initech", "GBP", 0, undefined],
    ]);
    expect(instance.secretKey).toBe("sk_test_acme_boot_0001");
    expect(instance.generatedKey).toBe(false);
    const [generated, fixed] = instance.companies[0]!.endpoints;
    expect(generated!.secret).toMatch(/^whsec_[0-9A-Za-z]{32}$/);
    expect(fixed!.secret).toBe("whsec_fixed_secret_0001");
    expect(JSON.parse(fixed!.enabled_events)).toEqual(["payment_intent.captured"]);
  });

  it("keeps a key stored only as a hash: the database file never holds a key in clear", async () => {
    const dbPath = join(folder(), "paysim.db");
    await (await useCreatedPaysim({ db: dbPath, config: CONFIG })).close();
    const bytes = readFileSync(dbPath);
    for (const key of ["sk_test_acme_boot_0001", "sk_test_globex_boot_0001"]) expect(bytes.includes(Buffer.from(key))).toBe(false);
  });

  it("follows a currency changed in the config on the next start", async () => {
    const dbPath = join(folder(), "paysim.db");
    await (await useCreatedPaysim({ db: dbPath, config: CONFIG })).close();
    const changed: PaysimConfig = { companies: [{ ...CONFIG.companies[0]!, currency: "CHF" }, ...CONFIG.companies.slice(1)] };
    const second = await useCreatedPaysim({ db: dbPath, config: changed });
    expect(second.companies[0]!.company.currency).toBe("CHF");
    const intent = await createIntent(clientFor(second.url, second.secretKey));
    expect(intent.currency).toBe("CHF");
  });
});

describe("starting without a config", () => {
  it("makes the default company Sandbox Merchant (EUR) with a generated key", async () => {
    const instance = await useCreatedPaysim({ db: join(folder(), "paysim.db") });
    expect(instance.generatedKey).toBe(true);
    expect(instance.secretKey).toMatch(/^sk_test_[0-9A-Za-z]{32}$/);
    expect(instance.companies.map((c) => [c.company.name, c.company.currency])).toEqual([["Sandbox Merchant", "EUR"]]);
  });

  it("keeps the same company when started again with the key it printed", async () => {
    const dbPath = join(folder(), "paysim.db");
    const first = await useCreatedPaysim({ db: dbPath });
    const intent = await createIntent(clientFor(first.url, first.secretKey));
    const key = first.secretKey;
    const companyId = first.companies[0]!.company.id;
    await first.close();
    const second = await useCreatedPaysim({ db: dbPath, secretKey: key });
    expect(second.generatedKey).toBe(false);
    expect(second.companies[0]!.company.id).toBe(companyId);
    expect((await callApi(second.url, key, "GET", `/v1/payment_intents/${intent.id}`)).status).toBe(200);
  });

  it("registers --forward-to endpoints once, keeping their generated secret on later starts", async () => {
    const dbPath = join(folder(), "paysim.db");
    const first = await useCreatedPaysim({ db: dbPath, secretKey: "sk_test_forward_0001", forwardTo: "http://127.0.0.1:9/hooks" });
    const secret = first.forwardEndpoints[0]!.secret;
    await first.close();
    const second = await useCreatedPaysim({ db: dbPath, secretKey: "sk_test_forward_0001", forwardTo: ["http://127.0.0.1:9/hooks"] });
    expect(second.forwardEndpoints.map((e) => e.secret)).toEqual([secret]);
    expect(second.companies[0]!.endpoints).toHaveLength(1);
  });
});

describe("an endpoint whose URL holds a card number, stored before paysim refused such URLs", () => {
  it("is removed at the next start, its URL masked in the endpoint and its deliveries: no card number stays in the file", async () => {
    const dir = folder();
    const db = join(dir, "paysim.db");
    const first = await createPaysim({ port: 0, db, secretKey: "sk_test_old_urls_0001" });
    const kept = await callApi(first.url, first.secretKey, "POST", "/v1/webhook_endpoints", {
      body: { url: "http://127.0.0.1:9/kept" },
      idempotencyKey: "kept-1",
    });
    const old = await callApi(first.url, first.secretKey, "POST", "/v1/webhook_endpoints", {
      body: { url: "http://127.0.0.1:9/old" },
      idempotencyKey: "old-1",
    });
    await createIntent(clientFor(first.url, first.secretKey));
    await first.close();
    // What an older paysim could store: the card number straight in the URL, and in its deliveries.
    const pan = "4242424242424242";
    const raw = new Database(db);
    raw.prepare("UPDATE webhook_endpoints SET url = ? WHERE id = ?").run(`http://127.0.0.1:9/orders/${pan}`, old.body.id);
    raw.prepare("UPDATE deliveries SET url = ? WHERE endpoint_id = ?").run(`http://127.0.0.1:9/orders/${pan}`, old.body.id);
    raw.close();

    const second = await useCreatedPaysim({ db, secretKey: "sk_test_old_urls_0001" });
    const listed = await callApi(second.url, second.secretKey, "GET", "/v1/webhook_endpoints");
    expect(listed.body.data.map((e: { id: string }) => e.id)).toEqual([kept.body.id]);
    await second.close();
    const stored = snapshot(db).endpoints as { id: string; url: string; deleted_at: string | null }[];
    expect(stored.find((e) => e.id === old.body.id)).toMatchObject({ url: "http://127.0.0.1:9/orders/************4242", deleted_at: expect.any(String) });
    for (const suffix of ["", "-wal"]) {
      if (existsSync(db + suffix)) expect(readFileSync(db + suffix).includes(pan)).toBe(false);
    }
  });
});

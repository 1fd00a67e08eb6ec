import { createHash } from "node:crypto";
import { readdirSync, readFileSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startPaysim, UnusableDatabaseError } from "../../src/index.js";
import { wholeSchema } from "../../src/paysim.js";
import { MIGRATIONS } from "../../src/store/schema.js";

/** The schema and import rules of a paysim, its resource modules' included. */
const WHOLE = await wholeSchema();
import { readSnapshot } from "../../src/store/snapshot.js";
import { Database } from "../../src/store/sqlite-driver.js";
import { useDatabase, useReceiver, useTempDir, useStartedPaysim } from "../helpers/disposables.js";
import { callApi } from "../helpers/paysim.js";
import { verifySignature } from "../../src/webhooks/sign.js";

const sha256 = (path: string) => createHash("sha256").update(readFileSync(path)).digest("hex");
const KEY = "sk_test_import_checks_0001";

const start = (options: Parameters<typeof startPaysim>[0] = {}) => useStartedPaysim({ secretKey: KEY, ...options });

/** A snapshot of a paysim with one payment intent (and its event), in a folder of its own. */
async function snapshotWithIntent(): Promise<{ dir: string; path: string; intentId: string }> {
  const source = await start();
  const created = await callApi(source.url, KEY, "POST", "/v1/payment_intents", {
    body: { amount: 4200, description: "order 17" },
    idempotencyKey: "import-checks-1",
  });
  const dir = useTempDir("paysim-import-");
  const path = join(dir, "fixture.db");
  await source.snapshot(path);
  await source.close();
  return { dir, path, intentId: created.body.id as string };
}

/** Changes the snapshot at `path` with the SQLite API, as someone handing over a doctored file would. */
function doctor(path: string, sql: string): void {
  const db = new Database(path);
  db.exec(sql);
  db.close();
}

describe("an import accepts exactly the schema of its version", () => {
  it.each([
    [
      "a trigger that deletes every new payment after its 201",
      "CREATE TRIGGER eat_payments AFTER INSERT ON payment_intents BEGIN DELETE FROM payment_intents WHERE id = NEW.id; END",
      /it has a trigger "eat_payments" on "payment_intents" that paysim's schema does not have/,
    ],
    [
      "a trigger that writes a full card number into every new intent",
      "CREATE TRIGGER leak AFTER INSERT ON payment_intents BEGIN UPDATE payment_intents SET description = '4242424242424242' WHERE id = NEW.id; END",
      /it has a trigger "leak" on "payment_intents"/,
    ],
    [
      "a table replaced by a view",
      "DROP TABLE fault_rules; CREATE VIEW fault_rules AS SELECT 1 AS id",
      /it has a view "fault_rules" on "fault_rules" that paysim's schema does not have; it lacks the table "fault_rules"/,
    ],
    ["a dropped table", "DROP TABLE payouts", /it lacks the table "payouts"/],
    ["an index of its own", "CREATE INDEX extra ON events (type)", /it has an index "extra" on "events"/],
    ["a table of its own", "CREATE TABLE notes (body TEXT)", /it has a table "notes" that paysim's schema does not have/],
    ["a changed table", "ALTER TABLE companies ADD COLUMN note TEXT", /its table "companies" is defined differently from paysim's/],
  ])("refuses %s with UnusableDatabaseError naming the file and why, leaving no --db file behind", async (_what, sql, reason) => {
    const { dir, path } = await snapshotWithIntent();
    doctor(path, sql);
    const before = sha256(path);
    const error = await startPaysim({ importFrom: path, db: join(dir, "paysim.db") }).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error).toBeInstanceOf(UnusableDatabaseError);
    expect(error?.message).toContain(`The snapshot ${path} does not have the schema of a paysim snapshot (version ${WHOLE.migrations.at(-1)!.version}): `);
    expect(error?.message).toMatch(reason);
    expect(readdirSync(dir)).toEqual(["fixture.db"]);
    expect(sha256(path)).toBe(before);
  });

  it("accepts a database of an older schema version as that version's migrations made it, and migrates its copy", async () => {
    const dir = useTempDir("paysim-import-");
    const old = join(dir, "v50.db");
    const db = useDatabase(
      old,
      MIGRATIONS.filter((step) => step.version <= 50),
    );
    db.close();
    const paysim = await start({ importFrom: old });
    expect((await callApi(paysim.url, KEY, "POST", "/v1/payment_intents", { body: { amount: 1 }, idempotencyKey: "after-old" })).status).toBe(201);
  });

  it("reads only the 100-byte header of a file that is not SQLite, however large (a 3 GiB sparse file)", async () => {
    const dir = useTempDir("paysim-import-");
    const huge = join(dir, "huge.bin");
    writeFileSync(huge, "not a database at all");
    truncateSync(huge, 3 * 2 ** 30);
    const error = await startPaysim({ importFrom: huge, db: join(dir, "paysim.db") }).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error).toBeInstanceOf(UnusableDatabaseError);
    expect(error?.message).toBe(
      `The file ${huge} is not a SQLite database, so it is not a paysim snapshot; paysim leaves it as it is. Pass a file written by a paysim snapshot.`,
    );
    expect(readdirSync(dir)).toEqual(["huge.bin"]);
  });

  it("refuses a value that cannot be masked in place (a number as long as a card number), naming the file and the column", async () => {
    const { dir, path } = await snapshotWithIntent();
    doctor(path, "UPDATE payment_intents SET amount = 4242424242424242");
    const error = await startPaysim({ importFrom: path, db: join(dir, "paysim.db") }).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error).toBeInstanceOf(UnusableDatabaseError);
    expect(error?.message).toBe(
      `The snapshot ${path} cannot be imported: payment_intents.amount holds the number ************4242, long enough to be a card number. paysim leaves it as it is; nothing of it was imported.`,
    );
    expect(readdirSync(dir)).toEqual(["fixture.db"]);
  });
});

describe("an import masks every card number it holds", () => {
  it("refuses a webhook URL holding a card number (masked, it would send deliveries elsewhere), naming the file", async () => {
    const { dir, path } = await snapshotWithIntent();
    doctor(
      path,
      `INSERT INTO webhook_endpoints (id, company_id, url, secret, enabled_events, created_at)
       VALUES ('we_doctored', (SELECT id FROM companies LIMIT 1), 'http://127.0.0.1:9/hook/4242424242424242', 'whsec_doctored', '["*"]', '2025-01-01T00:00:00.000Z')`,
    );
    const error = await startPaysim({ importFrom: path, db: join(dir, "paysim.db") }).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error).toBeInstanceOf(UnusableDatabaseError);
    expect(error?.message).toContain(
      `The snapshot ${path} cannot be imported: webhook_endpoints.url holds a webhook URL with a card number in it (http://127.0.0.1:9/hook/************4242)`,
    );
    expect(readdirSync(dir)).toEqual(["fixture.db"]);
  });

  it("masks card numbers stored as plain data, in columns and inside JSON, before anything is served or written", async () => {
    const { dir, path, intentId } = await snapshotWithIntent();
    doctor(
      path,
      `UPDATE payment_intents SET description = 'card 4242 4242 4242 4242';
       UPDATE events SET body = json_set(body, '$.data.note', 'pan 4000056655665556', '$.data.card', json('{"number":"5555555555554444","cvc":"123"}'));`,
    );
    const db = join(dir, "paysim.db");
    const paysim = await start({ importFrom: path, db });
    const intent = await callApi(paysim.url, KEY, "GET", `/v1/payment_intents/${intentId}`);
    expect(intent.body.description).toBe("card **** **** **** 4242");
    const [event] = await paysim.events.list({ objectId: intentId });
    expect(event?.data.note).toBe("pan ************5556");
    expect(event?.data.card).toEqual({ number: "************4444" });
    await paysim.close();
    const stored = readFileSync(db).toString("latin1");
    for (const pan of ["4242 4242 4242 4242", "4000056655665556", "5555555555554444"]) expect(stored).not.toContain(pan);
  });

  it("leaves a real snapshot of a busy paysim (deliveries, signatures, idempotency, faults, payouts, an advanced clock) byte for byte as it was", async () => {
    const receiver = await useReceiver(200);
    const source = await start({ payouts: "manual" });
    await callApi(source.url, KEY, "POST", "/v1/webhook_endpoints", { body: { url: receiver.url }, idempotencyKey: "endpoint-1" });
    for (let i = 0; i < 40; i++) {
      const created = await callApi(source.url, KEY, "POST", "/v1/payment_intents", {
        body: { amount: 1000 + i, description: `order ${i}` },
        idempotencyKey: `busy-${i}`,
      });
      const authorized = await callApi(source.url, KEY, "POST", `/v1/payment_intents/${created.body.id}/authorize`, {
        body: { payment_method: "pm_card_visa" },
      });
      expect(authorized.status).toBe(200);
    }
    const payout = await callApi(source.url, KEY, "POST", "/v1/payouts", {
      body: { amount: 500, currency: "EUR", destination_type: "card", destination_token: "tok_card_visa" },
      idempotencyKey: "payout-1",
    });
    expect(payout.status).toBe(201);
    await source.faults.add({ fault: "latency", latency_ms: 5, times: 3 });
    await source.clock.advance("3d");
    await source.webhooks.waitFor({ type: "payment_intent.authorized" });
    const path = join(useTempDir("paysim-import-"), "busy.db");
    await source.snapshot(path);
    const check = new Database(path, { readonly: true });
    const signatures = check.prepare("SELECT count(*) FROM delivery_attempts WHERE service_signature IS NOT NULL").pluck().get() as number;
    const fingerprints = check.prepare("SELECT count(*) FROM idempotency_keys WHERE fingerprint <> ''").pluck().get() as number;
    const faults = check.prepare("SELECT count(*) FROM fault_rules").pluck().get() as number;
    const clock = check.prepare("SELECT value FROM meta WHERE key = 'clock_high_water_ms'").pluck().get() as string;
    check.close();
    expect(signatures).toBeGreaterThan(0);
    expect(fingerprints).toBeGreaterThan(40);
    expect(faults).toBe(1);
    expect(clock).toMatch(/^\d{13}$/);
    // Every value of it is one paysim could have written: the rules of an import pass it unchanged.
    expect(readSnapshot(path, WHOLE.migrations, WHOLE.rules).equals(readFileSync(path))).toBe(true);
  });
});

describe("an import keeps the credentials a user chose", () => {
  it("keeps an endpoint's signing secret with 13 or more digits in a row as it is, so deliveries are signed with it", async () => {
    const secret = "whsec_ci_7302212345678901234";
    const receiver = await useReceiver(200);
    // A config's endpoint, which a later start keeps (a --forward-to one it would remove).
    const source = await start({ config: { companies: [{ name: "Acme", secret_key: KEY, webhook_endpoints: [{ url: receiver.url, secret }] }] } });
    const path = join(useTempDir("paysim-import-"), "secrets.db");
    await source.snapshot(path);
    await source.close();

    const paysim = await start({ importFrom: path, db: join(useTempDir("paysim-import-"), "paysim.db") });
    const endpoints = await callApi(paysim.url, KEY, "GET", "/v1/webhook_endpoints");
    expect(endpoints.body.data.map((endpoint: { secret: string }) => endpoint.secret)).toEqual([secret]);
    await callApi(paysim.url, KEY, "POST", "/v1/payment_intents", { body: { amount: 100 }, idempotencyKey: "secrets-1" });
    const [delivered] = await receiver.waitForRequests(1);
    expect(verifySignature(delivered!.body, String(delivered!.headers["service-signature"]), secret)).toBe(true);
  });
});

describe("the helpers of an imported instance", () => {
  it("list the snapshot's events and wait for them and their deliveries, as GET /v1/events shows them", async () => {
    const receiver = await useReceiver(200);
    const source = await start();
    await callApi(source.url, KEY, "POST", "/v1/webhook_endpoints", { body: { url: receiver.url }, idempotencyKey: "helpers-endpoint" });
    const created = await callApi(source.url, KEY, "POST", "/v1/payment_intents", { body: { amount: 2500 }, idempotencyKey: "helpers-1" });
    await source.webhooks.waitFor({ type: "payment_intent.created", objectId: created.body.id });
    const path = join(useTempDir("paysim-import-"), "history.db");
    await source.snapshot(path);
    await source.close();

    const restored = await start({ importFrom: path });
    const shown = (await callApi(restored.url, KEY, "GET", "/v1/events")).body.data as { id: string }[];
    const listed = await restored.events.list();
    expect(listed.map((event) => event.id)).toEqual(shown.map((event) => event.id).reverse());
    const event = await restored.events.waitFor({ type: "payment_intent.created", objectId: created.body.id }, { timeout: 1000 });
    expect(event.data.id).toBe(created.body.id);
    const { delivery } = await restored.webhooks.waitFor({ type: "payment_intent.created", url: receiver.url }, { timeout: 1000 });
    expect(delivery.status).toBe("succeeded");
    // Events of this run follow the imported ones.
    await callApi(restored.url, KEY, "POST", "/v1/payment_intents", { body: { amount: 1 }, idempotencyKey: "helpers-2" });
    const after = await restored.events.list({ type: "payment_intent.created" });
    expect(after.map((e) => e.data.amount)).toEqual([2500, 1]);
  });
});

describe("refused imports leave nothing behind", () => {
  it("a start that fails after the copy was made (the secret key belongs to another company) removes the --db file it wrote", async () => {
    const { dir, path } = await snapshotWithIntent();
    // Another company of the snapshot owns this key: bootstrap refuses it once the copy is open.
    doctor(
      path,
      `INSERT INTO companies (id, name, currency, is_default, created_at) VALUES ('co_otherotherotherotherothe', 'Other', 'EUR', 0, '2025-01-01T00:00:00.000Z');
      INSERT INTO api_keys SELECT '${createHash("sha256").update("sk_test_owned_by_other_01").digest("hex")}', 'co_otherotherotherotherothe', '2025-01-01T00:00:00.000Z';`,
    );
    const error = await startPaysim({ importFrom: path, db: join(dir, "paysim.db"), secretKey: "sk_test_owned_by_other_01" }).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error?.message).toMatch(/already belongs to company "Other"/);
    expect(readdirSync(dir)).toEqual(["fixture.db"]);
  });

  it("a copy of the snapshot is what gets masked: the snapshot file itself is never changed", async () => {
    const { dir, path } = await snapshotWithIntent();
    doctor(path, "UPDATE payment_intents SET description = '4242424242424242'");
    const before = sha256(path);
    await (await start({ importFrom: path, db: join(dir, "paysim.db") })).close();
    expect(sha256(path)).toBe(before);
  });
});

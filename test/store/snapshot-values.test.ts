import { createHash } from "node:crypto";
import { copyFileSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { startPaysim, UnusableDatabaseError } from "../../src/index.js";
import { EVENT_TYPES } from "../../src/domain/events.js";
import { wholeSchema } from "../../src/paysim.js";
import { MIGRATIONS } from "../../src/store/schema.js";
import { readSnapshot } from "../../src/store/snapshot.js";
import { Database } from "../../src/store/sqlite-driver.js";
import { runCli } from "../helpers/cli.js";
import { suiteScope, useDatabase, usePaysim, useReceiver, useStartedPaysim, useTempDir } from "../helpers/disposables.js";
import { callApi } from "../helpers/paysim.js";
import { closedPortUrl } from "../helpers/receiver.js";
import { triggerEveryEventType } from "../helpers/registry.js";
import { signedIn, textOf } from "../server/dashboard/helpers.js";

/** The schema and import rules of a paysim, its resource modules' included. */
const WHOLE = await wholeSchema();
const SNAPSHOT_RULES = WHOLE.rules;
const KEY = "sk_test_snapshot_values_01";
const sha256 = (path: string) => createHash("sha256").update(readFileSync(path)).digest("hex");

/**
 * A snapshot a paysim wrote holding every kind of row: payment intents in every state, payouts in
 * every status, endpoints with and without chaos (one deleted), events with and without an object,
 * deliveries and their attempts, retry and payout jobs, a fault rule, idempotency records and
 * the clock. Made once for the file; each test works on a copy.
 */
let rich: string;
const suite = suiteScope();

beforeAll(async () => {
  const receiver = await useReceiver(200, suite);
  // A slow clock: the automatic payout moves (2 s and 5 s of clock time) and the retries stay due while the rows are made.
  const source = await useStartedPaysim({ secretKey: KEY, payouts: "auto", timeScale: 0.01 }, suite);
  const api = (method: string, path: string, body?: object, idempotencyKey?: string) =>
    callApi(source.url, KEY, method, path, { ...(body ? { body } : {}), ...(idempotencyKey ? { idempotencyKey } : {}) });
  await api("POST", "/v1/webhook_endpoints", { url: receiver.url, chaos: { duplicate: 0.5, delay_ms: [0, 5], seed: 7 } }, "endpoint-chaos");
  // A receiver that is never there: its deliveries stay pending, with a retry job.
  const down = await closedPortUrl();
  await api("POST", "/v1/webhook_endpoints", { url: down, enabled_events: ["payment_intent.created"] }, "endpoint-down");
  const gone = await api("POST", "/v1/webhook_endpoints", { url: `${receiver.url}/old` }, "endpoint-gone");
  expect((await api("DELETE", `/v1/webhook_endpoints/${gone.body.id}`)).status).toBe(200);
  const intent = async (n: number) => (await api("POST", "/v1/payment_intents", { amount: 1000 + n, capture_method: "manual" }, `pi-${n}`)).body.id as string;
  await intent(0); // created
  const authorized = await intent(1);
  await api("POST", `/v1/payment_intents/${authorized}/authorize`, { payment_method: "pm_card_mastercard" });
  const captured = await intent(2);
  await api("POST", `/v1/payment_intents/${captured}/authorize`, { payment_method: "pm_card_visa" });
  await api("POST", `/v1/payment_intents/${captured}/capture`);
  const canceled = await intent(3);
  await api("POST", `/v1/payment_intents/${canceled}/cancel`);
  const failed = await intent(4);
  expect((await api("POST", `/v1/payment_intents/${failed}/authorize`, { payment_method: "pm_card_declined" })).body.state).toBe("failed");
  const payout = async (n: number, token = "tok_card_visa", type = "card") =>
    (await api("POST", "/v1/payouts", { amount: 500 + n, currency: "EUR", destination_type: type, destination_token: token }, `po-${n}`)).body.id as string;
  const move = (id: string, ...steps: [string, number?][]) =>
    steps.reduce(async (done: Promise<unknown>, [to, amount]) => {
      await done;
      const moved = await api("POST", `/v1/sandbox/payouts/${id}/transition`, { to, ...(amount === undefined ? {} : { amount }) });
      expect(moved.status).toBe(200);
    }, Promise.resolve());
  await payout(0); // pending, with its automatic moves still due
  await move(await payout(1), ["processing"]);
  await move(await payout(2), ["processing"], ["succeeded"]);
  await move(await payout(3), ["failed"]);
  await move(await payout(4), ["returned"]);
  await move(await payout(5), ["processing"], ["succeeded"], ["reversed"]);
  await move(await payout(6), ["processing"], ["succeeded"], ["partially_reversed", 100]);
  // Any other resource that emits events (one added since) gets its rows from its trigger fixtures.
  const madeAbove = new Set(["payment_intent", "payout"]);
  await triggerEveryEventType(
    { request: (method, path, { body, idempotencyKey }) => api(method, path, body as object | undefined, idempotencyKey) },
    EVENT_TYPES.filter((type) => !madeAbove.has(type.split(".")[0]!)),
  );
  await api("POST", "/v1/sandbox/webhook_ingest", { type: "payment_intent.captured", data: { reference: "ext-1", amount: 10, currency: "EUR" } });
  await source.faults.add({ fault: "latency", latency_ms: 5, times: 3, match: { path: "/v1/payouts/*" } });
  await source.webhooks.waitFor({ type: "payout.partially_reversed", url: receiver.url });
  await source.webhooks.waitFor({ url: down, status: "attempted" });
  rich = join(useTempDir("paysim-values-", suite), "rich.db");
  await source.snapshot(rich);
  const db = new Database(rich, { readonly: true });
  const count = (sql: string) => db.prepare(sql).pluck().get() as number;
  try {
    // Every table holds rows, so every column's rule is tried.
    for (const { table } of SNAPSHOT_RULES) expect(count(`SELECT count(*) FROM ${table}`), table).toBeGreaterThan(0);
    expect(count("SELECT count(DISTINCT state) FROM payment_intents")).toBe(5);
    expect(count("SELECT count(DISTINCT status) FROM payouts")).toBe(7);
    expect(count("SELECT count(DISTINCT kind) FROM jobs")).toBe(2);
    expect(count("SELECT count(*) FROM webhook_endpoints WHERE deleted_at IS NOT NULL")).toBe(1);
    expect(count("SELECT count(*) FROM webhook_endpoints WHERE chaos IS NOT NULL")).toBe(1);
    expect(count("SELECT count(*) FROM events WHERE object_id IS NULL")).toBe(1);
  } finally {
    db.close();
  }
}, 60_000);

/** A copy of the rich snapshot in a folder of its own, changed by `sql` as someone handing over a doctored file would. */
function doctored(sql: string): { dir: string; path: string } {
  const dir = useTempDir("paysim-values-");
  const path = join(dir, "hostile.db");
  copyFileSync(rich, path);
  const db = new Database(path);
  try {
    // better-sqlite3 enforces foreign keys by default; whoever hands over a file need not.
    db.pragma("foreign_keys = OFF");
    db.exec(sql);
  } finally {
    db.close();
  }
  return { dir, path };
}

/** The value of the naming column of the first row of `table` matching `where`, or `expression`'s value there. */
function keyOf(table: string, where: string, expression?: string): unknown {
  const rule = SNAPSHOT_RULES.find((candidate) => candidate.table === table)!;
  const db = new Database(rich, { readonly: true });
  try {
    return db
      .prepare(`SELECT ${expression ?? rule.key} FROM ${table} WHERE ${where} ORDER BY ${rule.key} LIMIT 1`)
      .pluck()
      .get();
  } finally {
    db.close();
  }
}

/** How a refusal names the row: its id, or the naming column and its value. */
function rowName(table: string, key: unknown): string {
  const rule = SNAPSHOT_RULES.find((candidate) => candidate.table === table)!;
  const value = typeof key === "string" ? JSON.stringify(key) : String(key);
  return rule.key === "id" ? value : `${rule.key} ${value}`;
}

interface Hostile {
  /** What is wrong, as the test's name says it. */
  what: string;
  table: string;
  column: string;
  /** The SQL expression written over the column of one row. */
  value: string;
  /** Which row (default: the first). */
  where?: string;
  /** What the refusal must say of the value. */
  says: RegExp;
}

const MISSING = (prefix: string) => `'${prefix}_${"Z".repeat(24)}'`;

const HOSTILE: Hostile[] = [
  // The issue's own: each of these made every POST /v1/payment_intents or the endpoint list answer 500.
  { what: "enabled_events that are not JSON", table: "webhook_endpoints", column: "enabled_events", value: "'[\"*\"'", says: /is not JSON/ },
  { what: "enabled_events naming no event type", table: "webhook_endpoints", column: "enabled_events", value: `'["payment_intent.exploded"]'`, says: /at 0: / },
  { what: "enabled_events listing none", table: "webhook_endpoints", column: "enabled_events", value: "'[]'", says: /Too small/ },
  { what: "chaos that is not JSON", table: "webhook_endpoints", column: "chaos", value: "'{duplicate: 1'", where: "chaos IS NOT NULL", says: /is not JSON/ },
  {
    what: "chaos out of range",
    table: "webhook_endpoints",
    column: "chaos",
    value: `'{"duplicate":7,"reorder":0,"delay_ms":[0,0],"seed":1}'`,
    says: /at duplicate: /,
  },
  {
    what: "chaos whose delay's min is above its max",
    table: "webhook_endpoints",
    column: "chaos",
    value: `'{"duplicate":0,"reorder":0,"delay_ms":[500,10],"seed":1}'`,
    says: /chaos\.delay_ms must be a list \[min, max\]/,
  },
  { what: "chaos lacking a member", table: "webhook_endpoints", column: "chaos", value: `'{"duplicate":0.5}'`, says: /at reorder: / },
  {
    what: "a live endpoint's URL the API refuses",
    table: "webhook_endpoints",
    column: "url",
    value: "'ftp://127.0.0.1/hook'",
    where: "deleted_at IS NULL",
    says: /url must be an http/,
  },
  {
    what: "a URL with credentials",
    table: "webhook_endpoints",
    column: "url",
    value: "'http://me:pw@127.0.0.1/hook'",
    where: "deleted_at IS NULL",
    says: /url must be an http/,
  },
  {
    what: "a deleted endpoint's URL that is not http",
    table: "webhook_endpoints",
    column: "url",
    value: "'file:///etc/passwd'",
    where: "deleted_at IS NOT NULL",
    says: /must be an http/,
  },
  { what: "a signing secret of another form", table: "webhook_endpoints", column: "secret", value: "'hunter2'", says: /must be whsec_ followed by/ },
  { what: "an unknown forward-to mark", table: "webhook_endpoints", column: "from_forward_to", value: "7", says: /Invalid input/ },
  { what: "an endpoint of no company", table: "webhook_endpoints", column: "company_id", value: MISSING("co"), says: /names no row of companies/ },
  // Events: the body is sent byte for byte and the dashboard reads it.
  { what: "an event body that is not JSON", table: "events", column: "body", value: "'<html>'", says: /is not JSON/ },
  {
    what: "an event body of another type than its row",
    table: "events",
    column: "body",
    value: "json_set(body, '$.type', 'payout.failed')",
    // Ids are random: the first event by id may be a payout.failed, whose body would not change.
    where: "type <> 'payout.failed'",
    says: /its type differs/,
  },
  { what: "an event body without data", table: "events", column: "body", value: "json_remove(body, '$.data')", says: /at data: / },
  { what: "an unknown event type", table: "events", column: "type", value: "'payment_intent.exploded'", says: /Invalid option/ },
  {
    what: "an event about no object of the snapshot",
    table: "events",
    column: "object_id",
    value: MISSING("pi"),
    says: /names no (payment intent|payout) of the snapshot/,
  },
  { what: "a request id without its prefix", table: "events", column: "request_id", value: "'request-1'", says: /Invalid string/ },
  // Payment intents: states of their machine, positive integer amounts, valid currencies.
  { what: "a state outside the machine", table: "payment_intents", column: "state", value: "'refunded'", says: /Invalid option/ },
  { what: "a zero amount", table: "payment_intents", column: "amount", value: "0", says: /amount must be a positive integer/ },
  { what: "a negative amount", table: "payment_intents", column: "amount", value: "-5", says: /amount must be a positive integer/ },
  { what: "a fractional amount", table: "payment_intents", column: "amount", value: "10.5", says: /fractions are not allowed/ },
  { what: "an amount as text", table: "payment_intents", column: "amount", value: "'lots'", says: /amount must be a positive integer.*got a string/ },
  { what: "a lower-case currency", table: "payment_intents", column: "currency", value: "'eur'", says: /currency must be/ },
  { what: "an id with another prefix", table: "payment_intents", column: "id", value: "'po_' || substr(id, 4)", says: /Invalid string/ },
  { what: "a reference of another form", table: "payment_intents", column: "reference", value: "'ORDER-1'", says: /Invalid string/ },
  { what: "a timestamp that is not one", table: "payment_intents", column: "created_at", value: "'yesterday'", says: /Invalid ISO datetime/ },
  { what: "a timestamp before 1970", table: "payment_intents", column: "updated_at", value: "'1969-12-31T23:59:59.999Z'", says: /from 1970 on/ },
  { what: "an unknown capture method", table: "payment_intents", column: "capture_method", value: "'later'", says: /Invalid option/ },
  {
    what: "half a card",
    table: "payment_intents",
    column: "card_brand",
    value: "NULL",
    where: "card_last4 IS NOT NULL",
    says: /must be set when card_last4 is/,
  },
  {
    what: "a card's last four of another form",
    table: "payment_intents",
    column: "card_last4",
    value: "'42'",
    where: "card_last4 IS NOT NULL",
    says: /Invalid string/,
  },
  {
    what: "a failure no test card gives",
    table: "payment_intents",
    column: "failure_reason",
    value: "'gremlins'",
    where: "state = 'failed'",
    says: /Invalid option/,
  },
  {
    what: "a failure reason on an intent that did not fail",
    table: "payment_intents",
    column: "failure_reason",
    value: "'card_declined'",
    where: "state = 'captured'",
    says: /must be NULL in state captured/,
  },
  {
    what: "a card on an intent never authorized",
    table: "payment_intents",
    column: "card_last4",
    value: "'4242'",
    where: "state = 'created'",
    says: /must be NULL in state created/,
  },
  { what: "an intent of no company", table: "payment_intents", column: "company_id", value: MISSING("co"), says: /names no row of companies/ },
  // Payouts.
  { what: "a payout status outside the machine", table: "payouts", column: "status", value: "'lost'", says: /Invalid option/ },
  { what: "a payout in an unknown currency", table: "payouts", column: "currency", value: "'XQQ'", says: /currency must be/ },
  {
    what: "more reversed than paid out",
    table: "payouts",
    column: "amount_reversed",
    value: "amount + 1",
    where: "status = 'partially_reversed'",
    says: /amount must be an integer greater than 0 and less than the payout amount/,
  },
  {
    what: "a reversal of less than the whole",
    table: "payouts",
    column: "amount_reversed",
    value: "amount - 1",
    where: "status = 'reversed'",
    says: /must be \d+ in status reversed/,
  },
  {
    what: "a reversed amount on a pending payout",
    table: "payouts",
    column: "amount_reversed",
    value: "1",
    where: "status = 'pending'",
    says: /must be 0 in status pending/,
  },
  {
    what: "a failed payout without its reason",
    table: "payouts",
    column: "failure_reason",
    value: "NULL",
    where: "status = 'failed'",
    says: /must be "destination_rejected" in status failed/,
  },
  { what: "a destination token that is no test token", table: "payouts", column: "destination_token", value: "'tok_nope'", says: /must be a test token/ },
  { what: "a destination shown as another", table: "payouts", column: "destination_masked", value: "'visa 4242'", says: /must be how its token shows/ },
  { what: "an unknown payout failure", table: "payouts", column: "failure_reason", value: "'gremlins'", says: /Invalid option/ },
  // Companies and keys.
  { what: "a company id without its prefix", table: "companies", column: "id", value: "'acme'", says: /Invalid string/ },
  { what: "a company currency in lower case", table: "companies", column: "currency", value: "'usd'", says: /currency must be/ },
  { what: "a blank company name", table: "companies", column: "name", value: "'   '", says: /name must be a non-empty string/ },
  { what: "a default flag that is no flag", table: "companies", column: "is_default", value: "5", says: /Invalid input/ },
  { what: "a key of no company", table: "api_keys", column: "company_id", value: MISSING("co"), says: /names no row of companies/ },
  { what: "a key hash of another form", table: "api_keys", column: "key_hash", value: "'sk_test_in_clear'", says: /must be a SHA-256 digest/ },
  // Deliveries and their attempts.
  { what: "a delivery of no event", table: "deliveries", column: "event_id", value: MISSING("evt"), says: /names no row of events/ },
  { what: "a delivery to no endpoint", table: "deliveries", column: "endpoint_id", value: MISSING("we"), says: /names no row of webhook endpoints/ },
  { what: "an unknown delivery status", table: "deliveries", column: "status", value: "'lost'", says: /Invalid option/ },
  { what: "a delivery to a URL that is not http", table: "deliveries", column: "url", value: "'javascript:alert(1)'", says: /must be an http/ },
  { what: "a next attempt before the clock's start", table: "deliveries", column: "next_attempt_ms", value: "-1", says: /milliseconds of paysim's clock/ },
  { what: "a negative attempt count", table: "deliveries", column: "attempt_count", value: "-1", says: /Too small/ },
  { what: "an attempt of no delivery", table: "delivery_attempts", column: "delivery_id", value: MISSING("del"), says: /names no row of deliveries/ },
  { what: "an unknown chaos mark", table: "delivery_attempts", column: "chaos", value: "'gremlin'", says: /Invalid option/ },
  { what: "a finished flag that is no flag", table: "delivery_attempts", column: "finished", value: "3", says: /Invalid input/ },
  { what: "a signature of another form", table: "delivery_attempts", column: "service_signature", value: "'forged'", says: /Invalid string/ },
  { what: "a negative duration", table: "delivery_attempts", column: "duration_ms", value: "-1", says: /Too small/ },
  // Jobs: the scheduler runs them.
  { what: "a job of an unknown kind", table: "jobs", column: "kind", value: "'shell.exec'", says: /Invalid option/ },
  { what: "a job payload that is not JSON", table: "jobs", column: "payload", value: "'{'", says: /is not JSON/ },
  { what: "a payout move to no status", table: "jobs", column: "payload", value: `'{"to":"lost"}'`, where: "kind = 'payout.move'", says: /at to: / },
  {
    what: "a payout move of no payout",
    table: "jobs",
    column: "subject_id",
    value: MISSING("po"),
    where: "kind = 'payout.move'",
    says: /names no row of payouts/,
  },
  {
    what: "a delivery job for no endpoint",
    table: "jobs",
    column: "payload",
    value: `'{"endpoint_id":${JSON.stringify(MISSING("we").slice(1, -1))}}'`,
    where: "kind = 'webhook.attempt'",
    says: /endpoint_id names no webhook endpoint/,
  },
  { what: "a job due at no time", table: "jobs", column: "due_ms", value: "'soon'", says: /must be an integer number of milliseconds/ },
  // Fault rules: the API's own rule schema.
  { what: "an unknown fault", table: "fault_rules", column: "fault", value: "'explode'", says: /Invalid option/ },
  { what: "a probability above 1", table: "fault_rules", column: "probability", value: "2", says: /Too big/ },
  { what: "a rule on the sandbox controls", table: "fault_rules", column: "path", value: "'/v1/sandbox/reset'", says: /may not name \/v1\/sandbox/ },
  { what: "more hits left than asked", table: "fault_rules", column: "remaining", value: "times + 1", says: /not be more than times/ },
  {
    what: "a latency fault without its latency",
    table: "fault_rules",
    column: "latency_ms",
    value: "NULL",
    says: /latency_ms is required for the latency fault/,
  },
  { what: "a method no rule takes", table: "fault_rules", column: "method", value: "'BREW'", says: /Invalid option/ },
  // Idempotency records are replayed as they are.
  { what: "a stored answer that is not JSON", table: "idempotency_keys", column: "body", value: "'oops'", says: /is not JSON/ },
  { what: "a stored answer that is an error", table: "idempotency_keys", column: "status", value: "500", says: /Too big/ },
  { what: "a record of no company", table: "idempotency_keys", column: "company_id", value: MISSING("co"), says: /names no row of companies/ },
  // The clock.
  { what: "a stored clock that is no number", table: "meta", column: "value", value: "'soon'", says: /milliseconds of paysim's clock/ },
];

// A table no case above attacks (a resource's, added since) is attacked where every company's
// table can be: a company_id naming no company. A table without that column needs a case above.
for (const { table, columns } of SNAPSHOT_RULES) {
  if (!HOSTILE.some((hostile) => hostile.table === table) && "company_id" in columns) {
    HOSTILE.push({ what: "a row of no company", table, column: "company_id", value: MISSING("co"), says: /names no row of companies/ });
  }
}

describe("an import refuses a snapshot holding a value paysim could not have written", () => {
  it("covers every table of the schema with at least one hostile value", () => {
    expect(new Set(HOSTILE.map((hostile) => hostile.table))).toEqual(new Set(SNAPSHOT_RULES.map((rule) => rule.table)));
  });

  it.each(HOSTILE.map((hostile) => [`${hostile.table}.${hostile.column}: ${hostile.what}`, hostile] as const))(
    "%s: refused naming the table, the row and the column, nothing written",
    async (_name, { table, column, value, where = "1 = 1", says }) => {
      const key = keyOf(table, where);
      expect(key, `a row of ${table} where ${where}`).not.toBeUndefined();
      const rule = SNAPSHOT_RULES.find((candidate) => candidate.table === table)!;
      const { dir, path } = doctored(`UPDATE ${table} SET ${column} = ${value} WHERE ${rule.key} = ${typeof key === "string" ? `'${key}'` : String(key)}`);
      // A doctored naming column names the row by its new value.
      const shownKey = column === rule.key ? keyOf(table, where, value) : key;
      const before = sha256(path);
      const error = await startPaysim({ importFrom: path, db: join(dir, "paysim.db"), secretKey: KEY }).then(
        () => undefined,
        (e: unknown) => e as Error,
      );
      expect(error).toBeInstanceOf(UnusableDatabaseError);
      const message = error!.message;
      expect(message).toContain(`The snapshot ${path} cannot be imported: table ${table}, row ${rowName(table, shownKey)}, column ${column}: `);
      expect(message).toMatch(says);
      expect(message).toContain("nothing of the snapshot was imported");
      expect(message).not.toContain("\n");
      expect(readdirSync(dir)).toEqual(["hostile.db"]);
      expect(sha256(path)).toBe(before);
    },
  );

  it("never quotes a signing secret or a key's hash in a refusal", async () => {
    const { dir, path } = doctored("UPDATE webhook_endpoints SET secret = 'whsec_ has a space'");
    const error = await startPaysim({ importFrom: path, db: join(dir, "paysim.db"), secretKey: KEY }).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error?.message).toContain("column secret: must be whsec_");
    expect(error?.message).not.toContain("has a space");
  });

  it("refuses a row pointing at a company no snapshot row holds even where the schema declares no foreign key (idempotency records)", async () => {
    // SQLite's own foreign keys are not checked on a file opened by hand: the rules check every reference.
    const { dir, path } = doctored(`UPDATE idempotency_keys SET company_id = ${MISSING("co")}`);
    await expect(startPaysim({ importFrom: path, db: join(dir, "paysim.db"), secretKey: KEY })).rejects.toThrow(
      /table idempotency_keys, row seq \d+, column company_id: names no row of companies/,
    );
  });

  it("refuses a stored clock key paysim never writes", async () => {
    const { dir, path } = doctored("INSERT INTO meta (key, value) VALUES ('owner', 'mallory')");
    await expect(startPaysim({ importFrom: path, db: join(dir, "paysim.db"), secretKey: KEY })).rejects.toThrow(/table meta, row key "owner", column key: /);
  });
});

describe("the rules of an import", () => {
  it("check an older snapshot at the schema it is migrated to", async () => {
    const dir = useTempDir("paysim-values-");
    const old = join(dir, "v50.db");
    const db = useDatabase(
      old,
      MIGRATIONS.filter((step) => step.version <= 50),
    );
    db.exec(`INSERT INTO companies (id, name, currency, is_default, created_at) VALUES ('co_${"A".repeat(24)}', 'Acme', 'EUR', 1, '2025-01-01T00:00:00.000Z');
      INSERT INTO webhook_endpoints (id, company_id, url, secret, enabled_events, created_at)
      VALUES ('we_${"B".repeat(24)}', 'co_${"A".repeat(24)}', 'http://127.0.0.1:9/hook', 'whsec_x', 'all of them', '2025-01-01T00:00:00.000Z')`);
    db.close();
    await expect(startPaysim({ importFrom: old, db: join(dir, "paysim.db"), secretKey: KEY })).rejects.toThrow(
      `table webhook_endpoints, row "we_${"B".repeat(24)}", column enabled_events: is not JSON (it holds "all of them")`,
    );
    expect(readdirSync(dir)).toEqual(["v50.db"]);
  });

  it("keep an idempotency record's key digest as it is, even when its hex digits read like a card number", async () => {
    const digest = `4242424242424242${"ab".repeat(24)}`;
    const { dir, path } = doctored(`UPDATE idempotency_keys SET key = '${digest}' WHERE seq = (SELECT min(seq) FROM idempotency_keys)`);
    const paysim = await usePaysim({ importFrom: path, db: join(dir, "paysim.db"), secretKey: KEY });
    expect(paysim.store.db.prepare("SELECT count(*) FROM idempotency_keys WHERE key = ?").pluck().get(digest)).toBe(1);
  });

  it("must cover every column of the schema: one without a rule fails every import, naming it", () => {
    const incomplete = SNAPSHOT_RULES.map((rule) =>
      rule.table === "payouts"
        ? { ...rule, columns: Object.fromEntries(Object.entries(rule.columns).filter(([column]) => column !== "amount_reversed")) }
        : rule,
    );
    expect(() => readSnapshot(rich, WHOLE.migrations, incomplete)).toThrow("no import rule for the column payouts.amount_reversed");
    expect(() => readSnapshot(rich, WHOLE.migrations, SNAPSHOT_RULES.slice(1))).toThrow("no import rules for the table(s) meta");
  });
});

describe("paysim start --import refuses such a snapshot the same way", () => {
  it.each([
    [
      "webhook_endpoints",
      "enabled_events",
      "'not json'",
      /table webhook_endpoints, row "we_[0-9A-Za-z]{24}", column enabled_events: is not JSON \(it holds "not json"\)/,
    ],
    [
      "webhook_endpoints",
      "chaos",
      `'{"duplicate":2,"reorder":0,"delay_ms":[0,0],"seed":1}'`,
      /table webhook_endpoints, row "we_[0-9A-Za-z]{24}", column chaos: at duplicate: /,
    ],
    ["events", "body", "'not json'", /table events, row "evt_[0-9A-Za-z]{24}", column body: is not JSON/],
  ])("%s.%s = %s: exit 1, one line naming table, row and column, no --db file", async (table, column, value, says) => {
    const { dir, path } = doctored(`UPDATE ${table} SET ${column} = ${value}`);
    const before = sha256(path);
    const result = await runCli(["start", "--port", "0", "--no-ui", "--db", join(dir, "new.db"), "--import", path], { cwd: dir });
    expect(result.code).toBe(1);
    const lines = result.stderr.split("\n").filter((line) => line.startsWith("paysim: "));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`paysim: The snapshot ${path} cannot be imported: `);
    expect(lines[0]).toMatch(says);
    expect(readdirSync(dir).filter((name) => name !== ".paysim")).toEqual(["hostile.db"]);
    expect(sha256(path)).toBe(before);
  });
});

describe("a snapshot paysim wrote, with every kind of row", () => {
  it("imports, and the API, the endpoint list and the dashboard's events page then work", async () => {
    const dir = useTempDir("paysim-values-");
    const path = join(dir, "rich.db");
    copyFileSync(rich, path);
    const paysim = await usePaysim({ importFrom: path, db: join(dir, "paysim.db"), secretKey: KEY });
    const intents = await paysim.api("GET", "/v1/payment_intents?limit=100");
    expect(new Set(intents.body.data.map((intent: { state: string }) => intent.state))).toEqual(
      new Set(["created", "authorized", "captured", "canceled", "failed"]),
    );
    const payouts = await paysim.api("GET", "/v1/payouts?limit=100");
    expect(payouts.body.data).toHaveLength(7);
    const endpoints = await paysim.api("GET", "/v1/webhook_endpoints");
    expect(endpoints.status).toBe(200);
    expect(endpoints.body.data.map((endpoint: { chaos: unknown }) => endpoint.chaos)).toContainEqual({ duplicate: 0.5, reorder: 0, delay_ms: [0, 5], seed: 7 });
    expect((await paysim.api("POST", "/v1/payment_intents", { body: { amount: 1 }, idempotencyKey: "after-import" })).status).toBe(201);
    const events = await (await signedIn(paysim)).get("/events");
    expect(events.status).toBe(200);
    expect(textOf(events.html)).toContain("payout.partially_reversed");
  });
});

// A company's rows are read and changed only by statements that name the company: a call made
// with another company's id reads and changes nothing, whatever the id and state say. Every
// statement of the store's repos is read from their source, and one on a company's table that
// leaves company_id out of its WHERE fails here unless the list below says why it may.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { createStore } from "../../src/store/index.js";
import { createPayoutsRepo } from "../../src/resources/payouts/store.js";
import { createPaymentIntentsRepo } from "../../src/resources/payment-intents/store.js";
import { useDatabase } from "../helpers/disposables.js";

const REPOS = fileURLToPath(new URL("../../src/store/repos/", import.meta.url));
/** Resource folders keep their table's statements in their store.ts. */
const RESOURCES = fileURLToPath(new URL("../../src/resources/", import.meta.url));

const RESET_SCOPE = "its scope is `company_id = @company`, or every company's rows for a reset of all";
const BOOTSTRAP = "the start-up's bootstrap goes over every company's endpoints";

/**
 * The statements on a company's table whose WHERE may leave company_id out, each with the reason.
 * A statement is named by its repo file and its text with runs of white space made one space.
 */
const ACROSS_COMPANIES: readonly { file: string; sql: string; why: string }[] = [
  { file: "store/repos/api-keys.ts", sql: "SELECT company_id FROM api_keys WHERE key_hash = ?", why: "the secret key is how a request's company is found" },
  {
    file: "resources/deliveries/store.ts",
    sql: "SELECT * FROM deliveries WHERE id = ?",
    why: "the dispatcher's jobs and the test harness's waits know a delivery by its id alone",
  },
  {
    file: "resources/deliveries/store.ts",
    sql: "SELECT d.*, e.body AS event_body, e.type AS event_type, e.request_id AS event_request_id, w.secret AS endpoint_secret, w.chaos AS endpoint_chaos, w.deleted_at AS endpoint_deleted_at FROM deliveries d JOIN events e ON e.id = d.event_id JOIN webhook_endpoints w ON w.id = d.endpoint_id WHERE d.id = ?",
    why: "the dispatcher's attempt, by the delivery id its job carries",
  },
  {
    file: "resources/deliveries/store.ts",
    sql: "SELECT * FROM deliveries WHERE event_id = ? ORDER BY seq",
    why: "the test harness's waits watch every company's events",
  },
  {
    file: "resources/events/store.ts",
    sql: "SELECT COALESCE(MAX(seq), 0) FROM events",
    why: "a number, no row: the seq after which the instance's own events come",
  },
  {
    file: "resources/events/store.ts",
    sql: 'SELECT * FROM events WHERE ${where.join(" AND ")} ORDER BY seq ${order === "oldest" ? "ASC" : "DESC"} LIMIT ?',
    why: "the test harness's waits: `company_id = ?` is in the WHERE whenever the wait names a company",
  },
  {
    file: "resources/payment-intents/store.ts",
    sql: "SELECT * FROM payment_intents WHERE id = ?",
    why: "the hosted checkout page has no key: the payment intent's unguessable id is the capability",
  },
  { file: "resources/payouts/store.ts", sql: "SELECT * FROM payouts WHERE id = ?", why: "the simulator's jobs move a payout they made, by its id" },
  { file: "store/repos/sandbox-reset.ts", sql: "SELECT id FROM ${table} WHERE ${scope}", why: RESET_SCOPE },
  { file: "store/repos/sandbox-reset.ts", sql: "DELETE FROM ${table} WHERE ${where(scope)}", why: RESET_SCOPE },
  { file: "store/repos/sandbox-reset.ts", sql: "${column} IN (SELECT id FROM ${table} WHERE ${scope})", why: RESET_SCOPE },
  {
    file: "resources/webhook-endpoints/store.ts",
    sql: "SELECT * FROM webhook_endpoints WHERE from_forward_to = 1 AND deleted_at IS NULL ORDER BY seq",
    why: BOOTSTRAP,
  },
  {
    file: "resources/webhook-endpoints/store.ts",
    sql: "SELECT * FROM webhook_endpoints WHERE from_forward_to = 2 AND deleted_at IS NULL ORDER BY seq",
    why: BOOTSTRAP,
  },
  { file: "resources/webhook-endpoints/store.ts", sql: "SELECT * FROM webhook_endpoints WHERE deleted_at IS NULL ORDER BY seq", why: BOOTSTRAP },
];

interface Statement {
  file: string;
  line: number;
  sql: string;
}

/** Every string and template in the repos' source that holds SQL, as written (a template's `${…}` kept). */
function repoStatements(): Statement[] {
  const statements: Statement[] = [];
  const resourceStores = readdirSync(RESOURCES, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(`${RESOURCES}${entry.name}/store.ts`))
    .map((entry) => ({ file: `resources/${entry.name}/store.ts`, path: `${RESOURCES}${entry.name}/store.ts` }));
  const repos = readdirSync(REPOS)
    .filter((name) => name.endsWith(".ts"))
    .map((name) => ({ file: `store/repos/${name}`, path: REPOS + name }));
  for (const { file, path } of [...repos, ...resourceStores]) {
    const source = ts.createSourceFile(file, readFileSync(path, "utf8"), ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateExpression(node)) {
        const sql = node.getText(source).slice(1, -1).replace(/\s+/g, " ").trim();
        if (/\b(SELECT|UPDATE|DELETE|INSERT)\b/.test(sql))
          statements.push({ file, line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1, sql });
        return;
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return statements;
}

/**
 * The tables of the migrated schema that are no company's: the companies themselves, the clock,
 * the scheduler's jobs (each job's handler reads its subject by id), a delivery's attempts (their
 * delivery names the company), SQLite's own. Every other table has a company_id column; a table
 * of a new resource is one of those without being named here.
 */
const NO_COMPANY_COLUMN = new Set(["companies", "meta", "jobs", "delivery_attempts", "idempotency_keys_by_arrival", "sqlite_sequence"]);

/** The tables of the migrated schema, and those of them with a company_id column. */
function schemaTables(): { all: string[]; company: Set<string> } {
  const db = useDatabase(":memory:");
  const all = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[];
  return {
    all,
    company: new Set(all.filter((table) => (db.prepare("SELECT name FROM pragma_table_info(?)").pluck().all(table) as string[]).includes("company_id"))),
  };
}

/** Whether a statement reads or changes rows of a company's table (or of a table named at run time) and its WHERE leaves company_id out. */
function leavesCompanyOut(sql: string, companyTables: Set<string>): boolean {
  if (/^INSERT\b/.test(sql)) return false;
  const tables = [...sql.matchAll(/\b(?:FROM|JOIN|UPDATE|INTO)\s+(\$\{[^}]*\}|\w+)/g)].map((match) => match[1]!);
  if (!tables.some((table) => table.startsWith("${") || companyTables.has(table))) return false;
  const where = sql.indexOf("WHERE");
  return where === -1 || !sql.slice(where).includes("company_id");
}

describe("the statements of the store's repos", () => {
  const statements = repoStatements();
  const allowed = (statement: Statement) => ACROSS_COMPANIES.some((entry) => entry.file === statement.file && entry.sql === statement.sql);

  it("on a company's table name the company in their WHERE, but for those listed with the reason they may not", () => {
    const { all, company: tables } = schemaTables();
    expect(tables).toEqual(new Set(all.filter((table) => !NO_COMPANY_COLUMN.has(table))));
    const unscoped = statements.filter((statement) => leavesCompanyOut(statement.sql, tables) && !allowed(statement));
    expect(unscoped.map(({ file, line, sql }) => `src/${file}:${line}: ${sql}`)).toEqual([]);
  });

  it("that read a company's deliveries by event or endpoint search that one's index, not all the company's deliveries", () => {
    const db = useDatabase(":memory:");
    const byEventOrEndpoint = statements.filter(
      ({ sql }) => /\bdeliveries\b/.test(sql) && /\bWHERE\b.*\b(event_id|endpoint_id) = \?/.test(sql) && sql.includes("company_id"),
    );
    expect(byEventOrEndpoint.length).toBeGreaterThanOrEqual(4);
    for (const { file, line, sql } of byEventOrEndpoint) {
      const plan = db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...Array.from(sql.matchAll(/\?/g), () => null)) as { detail: string }[];
      const index = /\bWHERE\b.*\bevent_id = \?/.test(sql) ? "deliveries_by_event" : "deliveries_by_endpoint";
      expect(plan.map((step) => step.detail).join(" | "), `src/${file}:${line}`).toContain(`USING INDEX ${index}`);
    }
  });

  it("are all read: each statement the list lets leave company_id out is still there", () => {
    expect(statements.length).toBeGreaterThan(50);
    const gone = ACROSS_COMPANIES.filter((entry) => !statements.some((statement) => statement.file === entry.file && statement.sql === entry.sql));
    expect(gone).toEqual([]);
  });
});

const NOW = "2026-01-01T00:00:00.000Z";

function storeWithTwoCompanies() {
  const store = createStore(useDatabase(":memory:"));
  for (const id of ["co_a", "co_b"]) store.companies.insert({ id, name: id, currency: "EUR", is_default: id === "co_a" ? 1 : 0, created_at: NOW });
  return store;
}

describe("a move of a company's row", () => {
  it("of a payout names the company: another company's id moves nothing", () => {
    const payouts = createPayoutsRepo(storeWithTwoCompanies().db);
    const payout = payouts.insert({
      id: "po_1",
      company_id: "co_a",
      reference: "POUT-0000000001",
      amount: 500,
      currency: "EUR",
      status: "pending",
      destination_type: "account",
      destination_token: "tok_account_fr",
      destination_masked: "FR** **** 0000",
      description: null,
      failure_reason: null,
      amount_reversed: 0,
      created_at: NOW,
      updated_at: NOW,
    });
    expect(payout.seq).toBeGreaterThan(0);
    expect(() => payouts.update({ ...payout, company_id: "co_b", status: "processing" }, "pending")).toThrow(/was not in status pending/);
    expect(payouts.byId("co_a", "po_1")?.status).toBe("pending");
    expect(payouts.update({ ...payout, status: "processing" }, "pending").status).toBe("processing");
  });

  it("of a payment intent names the company: another company's id moves nothing", () => {
    const intents = createPaymentIntentsRepo(storeWithTwoCompanies().db);
    const intent = intents.insert({
      id: "pi_1",
      company_id: "co_a",
      reference: "PAY-0000000001",
      amount: 500,
      currency: "EUR",
      description: null,
      capture_method: "automatic",
      state: "created",
      card_last4: null,
      card_brand: null,
      failure_reason: null,
      created_at: NOW,
      updated_at: NOW,
    });
    expect(() => intents.update({ ...intent, company_id: "co_b", state: "canceled" }, "created")).toThrow(/was not in state created/);
    expect(intents.byId("co_a", "pi_1")?.state).toBe("created");
  });
});

/** Company A's endpoint, an event of A's, and its delivery to that endpoint, pending. */
function companyAWithADelivery() {
  const store = storeWithTwoCompanies();
  const endpoint = store.webhookEndpoints.insert({
    id: "we_1",
    company_id: "co_a",
    url: "http://127.0.0.1:9/hook",
    secret: "whsec_a",
    enabled_events: '["*"]',
    created_at: NOW,
    from_forward_to: 0,
    chaos: null,
  });
  const event = store.events.insert({
    id: "evt_1",
    company_id: "co_a",
    type: "payout.created",
    object_id: "po_1",
    request_id: "req_1",
    created_at: NOW,
    body: "{}",
  });
  const delivery = store.deliveries.insert({
    id: "dlv_1",
    event_id: event.id,
    company_id: "co_a",
    endpoint_id: endpoint.id,
    url: endpoint.url,
    next_attempt_ms: 0,
    resent: 0,
    created_at: NOW,
  });
  return { store, endpoint, event, delivery };
}

describe("a read or change of a company's row made with another company's id", () => {
  it("of a fault rule counts and spends nothing: the rule keeps its matches and its hits", () => {
    const store = storeWithTwoCompanies();
    const rule = store.faultRules.insert({
      id: "fr_1",
      company_id: "co_a",
      fault: "server_error",
      method: null,
      path: null,
      times: 1,
      probability: 1,
      latency_ms: null,
      retry_after_seconds: null,
      seed: 1,
      created_at: NOW,
    });
    expect(store.faultRules.countMatch("co_b", rule.id)).toBeUndefined();
    expect(store.faultRules.useOnce("co_b", rule.id)).toBe("none");
    expect(store.faultRules.ofCompany("co_a")).toEqual([rule]);
    expect(store.faultRules.countMatch("co_a", rule.id)).toBe(0);
    expect(store.faultRules.useOnce("co_a", rule.id)).toBe("used_up");
    expect(store.faultRules.ofCompany("co_a")).toEqual([]);
  });

  it("of an endpoint retires, re-keys and re-marks nothing: the endpoint and its deliveries keep their URL", () => {
    const { store, endpoint, delivery } = companyAWithADelivery();
    store.webhookEndpoints.retire("co_b", endpoint.id, "http://127.0.0.1:9/masked", NOW);
    store.webhookEndpoints.setSecret("co_b", endpoint.id, "whsec_b");
    store.webhookEndpoints.setChaos("co_b", endpoint.id, '{"duplicate":1}');
    store.webhookEndpoints.setFromForwardTo("co_b", endpoint.id, true);
    expect(store.webhookEndpoints.byId("co_a", endpoint.id)).toEqual(endpoint);
    expect(store.deliveries.byId(delivery.id)).toEqual(delivery);
    store.webhookEndpoints.retire("co_a", endpoint.id, "http://127.0.0.1:9/masked", NOW);
    expect(store.webhookEndpoints.byId("co_a", endpoint.id)).toBeUndefined();
    expect(store.deliveries.byId(delivery.id)?.url).toBe("http://127.0.0.1:9/masked");
  });

  it("of a delivery reads none of an event's or an endpoint's deliveries, and moves none", () => {
    const { store, endpoint, event, delivery } = companyAWithADelivery();
    expect(store.deliveries.forCompanyEvent("co_b", event.id)).toEqual([]);
    expect(store.deliveries.pendingForEndpoint("co_b", endpoint.id)).toEqual([]);
    expect(store.deliveries.eventIdOf("co_b", delivery.id)).toBeUndefined();
    store.deliveries.update({ ...delivery, company_id: "co_b", status: "failed", next_attempt_ms: null });
    expect(store.deliveries.byId(delivery.id)).toEqual(delivery);
    expect(store.deliveries.forCompanyEvent("co_a", event.id)).toEqual([delivery]);
    expect(store.deliveries.pendingForEndpoint("co_a", endpoint.id)).toEqual([delivery]);
    expect(store.deliveries.eventIdOf("co_a", delivery.id)).toBe(event.id);
  });
});

import { Database } from "../../src/store/sqlite-driver.js";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { createPaysim } from "../../src/paysim.js";
import { DatabaseInUseError } from "../../src/store/errors.js";
import { runCli } from "../helpers/cli.js";
import { suiteScope, usePaysim, usePaysimCli, useReceiver, useTempDir } from "../helpers/disposables.js";
import { inPool, seededRandom } from "../helpers/load.js";
import { callApi, createIntent, freshKey, type TestPaysim } from "../helpers/paysim.js";
import type { Receiver } from "../helpers/receiver.js";

// The second-process tests run the real binary (dist/): run `npm run build` first.

/**
 * Many concurrent clients against one paysim: creations with shared and unique
 * keys, reads, lists, transitions and clock advances, all at once. Every
 * request must be answered with an expected status, and what is left in the
 * database must add up.
 */

const SEED = 0x10ad;
const CONNECTIONS = 300;
const OPS_PER_CONNECTION = 10;
const SHARED_KEYS = 25;
/** Guards against a request left hanging; not a timing assertion. */
const NO_ANSWER_AFTER_MS = 60_000;

type Op = "create_intent" | "create_payout" | "create_shared" | "read" | "list" | "intent_transition" | "payout_transition" | "advance";

/** What each kind of request may answer; anything else (a 500 above all) is a failure. */
const ALLOWED: Record<Op, number[]> = {
  create_intent: [201],
  create_payout: [201],
  // Two bodies race for one key: the winner's body gets its object (or the replay), the other 409.
  create_shared: [201, 409],
  read: [200],
  list: [200],
  // A move the state machine refuses (another client moved it first) is a 400.
  intent_transition: [200, 400],
  payout_transition: [200, 400],
  advance: [200],
};

interface Outcome {
  op: Op;
  method: string;
  path: string;
  sent?: any;
  key?: string;
  status: number | "no answer";
  body?: any;
  replayed: boolean;
}

/** The event types a payment intent emits to reach each state, in order. */
const INTENT_HISTORIES = new Map<string, string[][]>([
  ["created", [["created"]]],
  ["authorized", [["created", "authorized"]]],
  ["captured", [["created", "authorized", "captured"]]],
  [
    "canceled",
    [
      ["created", "canceled"],
      ["created", "authorized", "canceled"],
    ],
  ],
  ["failed", [["created", "failed"]]],
]);
const PAYOUT_HISTORIES = new Map<string, string[][]>([
  ["pending", [["created"]]],
  ["processing", [["created", "processing"]]],
  ["succeeded", [["created", "processing", "succeeded"]]],
  ["reversed", [["created", "processing", "succeeded", "reversed"]]],
  ["partially_reversed", [["created", "processing", "succeeded", "partially_reversed"]]],
  ["failed", [["created", "failed"]]],
  ["returned", [["created", "returned"]]],
]);

const thisFile = suiteScope();
const folder = useTempDir("paysim-overload-", thisFile);
const dbPath = join(folder, "paysim.db");
let paysim: TestPaysim;
let receiver: Receiver;
const internalErrors: string[] = [];
const outcomes: Outcome[] = [];
const poolIntents: any[] = [];
const poolPayouts: any[] = [];
let secondProcess: { code: number | null; stdout: string; stderr: string } | undefined;
let secondInProcess: unknown;
let integrity: unknown[] = [];
let rows: {
  intents: { id: string; state: string; description: string | null; amount: number }[];
  payouts: { id: string; status: string; description: string | null }[];
  events: { id: string; type: string; object_id: string | null }[];
  deliveries: { event_id: string; n: number }[];
} = { intents: [], payouts: [], events: [], deliveries: [] };

/** One request over its own fetch, answered or given up after the guard. */
async function send(op: Op, method: string, path: string, body?: object, key?: string): Promise<Outcome> {
  const abort = new AbortController();
  const guard = setTimeout(() => abort.abort(), NO_ANSWER_AFTER_MS);
  const headers: Record<string, string> = { Authorization: `Bearer ${paysim.secretKey}` };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (key !== undefined) headers["Idempotency-Key"] = key;
  try {
    const response = await fetch(paysim.url + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal: abort.signal });
    const text = await response.text();
    return {
      op,
      method,
      path,
      sent: body,
      key,
      status: response.status,
      body: JSON.parse(text),
      replayed: response.headers.get("idempotent-replayed") === "true",
    };
  } catch {
    return { op, method, path, sent: body, key, status: "no answer", replayed: false };
  } finally {
    clearTimeout(guard);
  }
}

const sharedBody = (k: number, variant: "a" | "b") => ({ amount: variant === "a" ? 1000 + k : 5000 + k, description: `shared-${k}` });

/** One connection's requests, chosen by its own seeded sequence. */
async function connection(id: number): Promise<void> {
  const random = seededRandom(SEED + id);
  for (let n = 0; n < OPS_PER_CONNECTION; n++) {
    const r = random();
    let outcome: Outcome;
    if (r < 0.2) {
      const key = `overload-${id}-${n}`;
      outcome = await send(
        "create_intent",
        "POST",
        "/v1/payment_intents",
        { amount: 100 + random.int(10_000), description: key, capture_method: random.pick(["automatic", "manual"]) },
        key,
      );
    } else if (r < 0.3) {
      const key = `overload-${id}-${n}`;
      outcome = await send(
        "create_payout",
        "POST",
        "/v1/payouts",
        {
          amount: 100 + random.int(10_000),
          currency: "EUR",
          destination_type: "card",
          destination_token: random.pick(["tok_card_visa", "tok_card_fail", "tok_card_return"]),
          description: key,
        },
        key,
      );
    } else if (r < 0.45) {
      const k = random.int(SHARED_KEYS);
      outcome = await send("create_shared", "POST", "/v1/payment_intents", sharedBody(k, random() < 0.9 ? "a" : "b"), `shared-${k}`);
    } else if (r < 0.58) {
      const target = random() < 0.6 ? `/v1/payment_intents/${random.pick(poolIntents).id}` : `/v1/payouts/${random.pick(poolPayouts).id}`;
      outcome = await send("read", "GET", target);
    } else if (r < 0.68) {
      const lists = [
        "/v1/payment_intents?limit=50",
        "/v1/payment_intents?state=authorized",
        "/v1/payouts?limit=100&status=pending",
        "/v1/events?limit=100",
        "/v1/events?type=payout.created",
      ];
      outcome = await send("list", "GET", random.pick(lists));
    } else if (r < 0.83) {
      const intent = random.pick(poolIntents);
      const move = random.pick(["authorize", "authorize", "capture", "cancel"]);
      const body = move === "authorize" ? { payment_method: random.pick(["pm_card_visa", "pm_card_visa", "pm_card_declined"]) } : {};
      outcome = await send("intent_transition", "POST", `/v1/payment_intents/${intent.id}/${move}`, body);
    } else if (r < 0.97) {
      const payout = random.pick(poolPayouts);
      const to = random.pick(["processing", "succeeded", "failed", "returned", "reversed", "partially_reversed"]);
      outcome = await send(
        "payout_transition",
        "POST",
        `/v1/sandbox/payouts/${payout.id}/transition`,
        to === "partially_reversed" ? { to, amount: 1 } : { to },
      );
    } else {
      outcome = await send("advance", "POST", "/v1/sandbox/clock/advance", { seconds: 1 + random.int(5) });
    }
    outcomes.push(outcome);
  }
}

beforeAll(async () => {
  receiver = await useReceiver(200, thisFile);
  paysim = await usePaysim(
    { db: dbPath, forwardTo: receiver.url, onInternalError: (requestId, error) => internalErrors.push(`${requestId}: ${String(error)}`) },
    thisFile,
  );
  for (let i = 0; i < 60; i++)
    poolIntents.push(await createIntent(paysim, { amount: 500 + i, description: `pool-${i}`, capture_method: i % 2 ? "manual" : "automatic" }));
  for (let i = 0; i < 40; i++) {
    const created = await paysim.api("POST", "/v1/payouts", {
      body: { amount: 500 + i, currency: "EUR", destination_type: "card", destination_token: "tok_card_visa", description: `pool-${i}` },
      idempotencyKey: freshKey(),
    });
    poolPayouts.push(created.body);
  }

  // While the storm runs, a second paysim tries to start on the same database file.
  const storm = inPool(
    Array.from({ length: CONNECTIONS }, (_, i) => i),
    CONNECTIONS,
    connection,
  );
  const second = runCli(["start", "--port", "0", "--no-ui", "--db", dbPath], { cwd: folder });
  secondInProcess = await createPaysim({ port: 0, db: dbPath }).then(
    async (instance) => {
      await instance.close();
      return "started";
    },
    (error: unknown) => error,
  );
  secondProcess = await second;
  await storm;
  await paysim.scheduler.idle();

  const db = paysim.store.db;
  rows = {
    intents: db.prepare("SELECT id, state, description, amount FROM payment_intents ORDER BY seq").all() as typeof rows.intents,
    payouts: db.prepare("SELECT id, status, description FROM payouts ORDER BY seq").all() as typeof rows.payouts,
    events: db.prepare("SELECT id, type, object_id FROM events ORDER BY seq").all() as typeof rows.events,
    deliveries: db
      .prepare("SELECT e.id AS event_id, count(d.id) AS n FROM events e LEFT JOIN deliveries d ON d.event_id = e.id GROUP BY e.id")
      .all() as typeof rows.deliveries,
  };
  await paysim.close();
  const check = new Database(dbPath, { readonly: true });
  try {
    integrity = [
      ...(check.pragma("integrity_check") as { integrity_check: string }[]).map((row) => row.integrity_check),
      ...(check.pragma("foreign_key_check") as unknown[]),
    ];
  } finally {
    check.close();
  }
}, 180_000);

describe(`${CONNECTIONS} concurrent connections, ${CONNECTIONS * OPS_PER_CONNECTION} mixed requests`, () => {
  it("answers every request with a status its kind allows: none hangs, none is a 500", () => {
    expect(outcomes).toHaveLength(CONNECTIONS * OPS_PER_CONNECTION);
    const wrong = outcomes
      .filter((o) => !ALLOWED[o.op].includes(o.status as number))
      .map((o) => `${o.method} ${o.path} → ${o.status} ${JSON.stringify(o.body)}`);
    expect(wrong).toEqual([]);
    expect(internalErrors).toEqual([]);
    // Every kind of request was in the mix.
    expect(new Set(outcomes.map((o) => o.op))).toEqual(new Set(Object.keys(ALLOWED)));
  });

  it("leaves a database that passes PRAGMA integrity_check and foreign_key_check", () => {
    expect(integrity).toEqual(["ok"]);
  });

  it("creates exactly one object per shared key: every 201 for it carries that object, the other body gets 409", () => {
    const used = new Set(outcomes.filter((o) => o.op === "create_shared").map((o) => o.key!));
    expect(used.size).toBeGreaterThan(1);
    for (const key of used) {
      const objects = rows.intents.filter((i) => i.description === key);
      expect(objects, key).toHaveLength(1);
      const [object] = objects;
      const answers = outcomes.filter((o) => o.key === key);
      for (const answer of answers) {
        if (answer.sent.amount === object!.amount) expect(answer, key).toMatchObject({ status: 201, body: { id: object!.id } });
        else expect(answer.status, key).toBe(409);
      }
      expect(
        answers.filter((a) => a.status === 201 && !a.replayed),
        key,
      ).toHaveLength(1);
    }
  });

  it("creates one object per unique key, each answered once without a replay", () => {
    const unique = outcomes.filter((o) => o.op === "create_intent" || o.op === "create_payout");
    for (const answer of unique) expect(answer.replayed).toBe(false);
    const intents = new Map(rows.intents.map((i) => [i.description, i]));
    const payouts = new Map(rows.payouts.map((p) => [p.description, p]));
    for (const answer of unique) {
      const stored = answer.op === "create_intent" ? intents.get(answer.key!) : payouts.get(answer.key!);
      expect(stored?.id, answer.key).toBe(answer.body.id);
    }
    // Nothing else was created: the pool, and one object per key that was answered 201.
    const keysCreated = new Set(outcomes.filter((o) => o.status === 201).map((o) => o.key));
    expect(rows.intents.length + rows.payouts.length).toBe(poolIntents.length + poolPayouts.length + keysCreated.size);
  });

  it("records one event per state change: the payment intent events equal the changes the clients were answered, each object's events are a path of its state machine", () => {
    // Payment intents change only when a client asks: count what the answers say changed.
    let expected = poolIntents.length;
    for (const o of outcomes) {
      if (o.status === 201 && !o.replayed && (o.op === "create_intent" || o.op === "create_shared")) expected += 1;
      if (o.op === "intent_transition" && o.status === 200) expected += o.path.endsWith("/authorize") && o.body.state === "captured" ? 2 : 1;
    }
    expect(rows.events.filter((e) => e.type.startsWith("payment_intent.")).length).toBe(expected);

    const history = new Map<string, string[]>();
    for (const event of rows.events) history.set(event.object_id!, [...(history.get(event.object_id!) ?? []), event.type.split(".")[1]!]);
    for (const intent of rows.intents) expect(INTENT_HISTORIES.get(intent.state), intent.id).toContainEqual(history.get(intent.id));
    for (const payout of rows.payouts) expect(PAYOUT_HISTORIES.get(payout.status), payout.id).toContainEqual(history.get(payout.id));
    expect(rows.events.length).toBe([...history.values()].reduce((sum, types) => sum + types.length, 0));
  });

  it("gives every event exactly one delivery to the endpoint", () => {
    expect(rows.deliveries.length).toBe(rows.events.length);
    expect(rows.deliveries.filter((d) => d.n !== 1)).toEqual([]);
  });
});

describe("a second paysim on the same database file", () => {
  const second = useTempDir("paysim-second-", suiteScope());

  it("is refused with exit 1 and a clear message while the first runs; the first keeps serving, its instance.json untouched; once it stops, the file starts again with its data", async () => {
    const db = join(second, "paysim.db");
    const first = await usePaysimCli(["--no-ui", "--db", db]);
    const intent = await createIntent({ api: (method, path, call) => callApi(first.url, first.key, method, path, call) });
    const instanceFile = readFileSync(join(second, "instance.json"), "utf8");

    const refused = await runCli(["start", "--port", "0", "--no-ui", "--db", db], { cwd: second });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`paysim: The database ${db} is in use by another paysim`);
    expect(refused.stderr).toContain("--db");
    expect(refused.stdout).not.toMatch(/listening on/);
    expect(readFileSync(join(second, "instance.json"), "utf8")).toBe(instanceFile);

    expect((await callApi(first.url, first.key, "GET", `/v1/payment_intents/${intent.id}`)).status).toBe(200);
    const later = await createIntent({ api: (method, path, call) => callApi(first.url, first.key, method, path, call) });
    expect((await first.cli.stop("SIGTERM")).code).toBe(0);

    const again = await usePaysimCli(["--no-ui", "--db", db]);
    expect(again.key).toBe(first.key);
    for (const { id } of [intent, later]) expect((await callApi(again.url, again.key, "GET", `/v1/payment_intents/${id}`)).status).toBe(200);
  });

  it("is refused while the first runs under load: the child exits 1 saying the database is in use, and in-process createPaysim throws DatabaseInUseError", () => {
    expect(secondProcess?.code).toBe(1);
    expect(secondProcess?.stderr).toContain(`The database ${dbPath} is in use by another paysim`);
    expect(secondProcess?.stdout).not.toMatch(/listening on/);
    expect(secondInProcess).toBeInstanceOf(DatabaseInUseError);
  });
});

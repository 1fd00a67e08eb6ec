#!/usr/bin/env node
// References for the create measure of `npm run bench`: how fast a durable creation can be on this
// stack at all. A bare Hono app on @hono/node-server, like the floor, whose POST /create writes
// through paysim's own store (from dist/: its database settings and group commit, and for
// paysim-rows its schema and repositories too) and answers 201 once the group that holds its
// writes has committed, as paysim does.
//
//   node bench/durable-create.mjs one-row      one row, keyed by a random 24-character id under a
//                                             unique index, as the least a durable creation writes
//   node bench/durable-create.mjs paysim-rows  what one paysim creation writes (its payment intent,
//                                             with a reference checked unique, its event and its
//                                             idempotency record, with all their indexes), and
//                                             none of its request handling: no key check,
//                                             validation, masking, idempotency lookup or request log
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { newId } from "../dist/domain/ids.js";
import { withRequestId } from "../dist/domain/json-text.js";
import { sha256Hex } from "../dist/domain/sha256.js";
import { createClock } from "../dist/runtime/clock.js";
import { createPaymentIntentService } from "../dist/services/payment-intents.js";
import { uniqueReference } from "../dist/services/references.js";
import { createGroupCommit } from "../dist/store/group-commit.js";
import { createStore } from "../dist/store/index.js";
import { openDatabase } from "../dist/store/open.js";

/** Each mode, given its database file: the open database, and the writes of one creation (run inside a group-commit unit), which answer the JSON text to send. */
const modes = {
  "one-row"(path) {
    const oneTable = { version: 1, up: (db) => db.exec("CREATE TABLE items (seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, amount INTEGER NOT NULL, created_at TEXT NOT NULL)") };
    const db = openDatabase(path, [oneTable]);
    const insert = db.prepare("INSERT INTO items (id, amount, created_at) VALUES (?, ?, ?)");
    const write = (input) => {
      const item = { id: newId("pi"), amount: input.amount, created_at: new Date().toISOString() };
      insert.run(item.id, item.amount, item.created_at);
      return JSON.stringify(item);
    };
    return { db, unit: createGroupCommit(db).unit, write };
  },
  "paysim-rows"(path) {
    const db = openDatabase(path);
    const store = createStore(db);
    const company = { id: newId("co"), name: "Bench", currency: "EUR", is_default: 1, created_at: new Date().toISOString() };
    store.companies.insert(company);
    // paysim's own resource shape, so the stored event and answer are the bytes paysim stores.
    const { toResource } = createPaymentIntentService({ store, clock: createClock(), testCards: [], baseUrl: () => "http://127.0.0.1" });
    const write = (input) => {
      const now = Date.now();
      const at = new Date(now).toISOString();
      const reference = uniqueReference("PAY", now, (candidate) => store.paymentIntents.referenceTaken(company.id, candidate));
      const row = store.paymentIntents.insert({
        id: newId("pi"), company_id: company.id, reference, amount: input.amount, currency: company.currency,
        description: input.description ?? null, capture_method: "automatic", state: "created",
        card_last4: null, card_brand: null, failure_reason: null, created_at: at, updated_at: at,
      });
      const requestId = newId("req");
      const eventId = newId("evt");
      const data = toResource(row);
      const body = JSON.stringify({ id: eventId, object: "event", type: "payment_intent.created", created_at: at, request_id: requestId, data });
      store.events.insert({ id: eventId, company_id: company.id, type: "payment_intent.created", object_id: row.id, request_id: requestId, created_at: at, body });
      const answer = withRequestId(data, requestId);
      store.idempotencyKeys.save({
        company_id: company.id, method: "POST", path: "/v1/payment_intents", key: sha256Hex(newId("req")),
        fingerprint: "0".repeat(64), status: 201, body: answer, created_ms: now,
      });
      return answer;
    };
    return { db, unit: store.unit, write };
  },
};

const mode = process.argv[2];
if (!(mode in modes)) {
  console.error(`usage: durable-create.mjs ${Object.keys(modes).join(" | ")}`);
  process.exit(2);
}
const dir = mkdtempSync(join(tmpdir(), "paysim-bench-reference-"));
const { db, unit, write } = modes[mode](join(dir, "reference.db"));

const app = new Hono();
app.post("/create", async (c) => {
  const input = await c.req.json();
  const { result, committed } = unit(() => write(input));
  await committed;
  return c.body(result, 201, { "Content-Type": "application/json" });
});

const server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, (info) => {
  console.log(`${mode} reference listening on http://127.0.0.1:${info.port}`);
});
process.on("SIGTERM", () => {
  server.close();
  db.close();
  rmSync(dir, { recursive: true, force: true });
  process.exit(0);
});

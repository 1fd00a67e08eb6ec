// The writes of one durable creation, for the create references of `npm run bench`
// (bench/durable-create.mjs, over HTTP) and for bench/writes-alone.mjs (the same writes with no
// HTTP). Each goes through paysim's own store from dist/ (its database settings and group commit,
// and for paysim-rows its schema and repositories too).
//
//   one-row      one row, keyed by a random 24-character id under a unique index, as the least a
//                durable creation writes
//   paysim-rows  what one paysim creation writes (its payment intent, with a reference checked
//                unique, its event and its idempotency record, with all their indexes), and none
//                of its request handling: no key check, validation, masking, idempotency lookup or
//                request log
import { createIds } from "../dist/domain/ids.js";
import { withRequestId } from "../dist/shared/json-text.js";
import { sha256Hex } from "../dist/shared/sha256.js";
import { createClock } from "../dist/runtime/clock.js";
import { createPaymentIntentService } from "../dist/services/payment-intents.js";
import { uniqueReference } from "../dist/services/references.js";
import { createGroupCommit } from "../dist/store/group-commit.js";
import { createStore } from "../dist/store/index.js";
import { openDatabase } from "../dist/store/open.js";

/** The bench's ids, drawn as an instance's are. */
const { newId, newReference } = createIds();

/**
 * Each mode, given its database file: the open database, its group commit (`unit`, `flush`), and
 * the writes of one creation (run inside a unit), which answer the JSON text to send.
 */
export const CREATION_WRITES = {
  "one-row"(path) {
    const oneTable = {
      version: 1,
      up: (db) => db.exec("CREATE TABLE items (seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, amount INTEGER NOT NULL, created_at TEXT NOT NULL)"),
    };
    const db = openDatabase(path, [oneTable]);
    const insert = db.prepare("INSERT INTO items (id, amount, created_at) VALUES (?, ?, ?)");
    const write = (input) => {
      const item = { id: newId("pi"), amount: input.amount, created_at: new Date().toISOString() };
      insert.run(item.id, item.amount, item.created_at);
      return JSON.stringify(item);
    };
    return { db, group: createGroupCommit(db), write };
  },
  "paysim-rows"(path) {
    const db = openDatabase(path);
    const store = createStore(db);
    const company = { id: newId("co"), name: "Bench", currency: "EUR", is_default: 1, created_at: new Date().toISOString() };
    store.companies.insert(company);
    // paysim's own resource shape, so the stored event and answer are the bytes paysim stores.
    const { toResource } = createPaymentIntentService({ store, clock: createClock(), testCards: [], baseUrl: () => "http://127.0.0.1", ids: createIds() });
    const write = (input) => {
      const now = Date.now();
      const at = new Date(now).toISOString();
      const reference = uniqueReference(
        () => newReference("PAY", now),
        (candidate) => store.paymentIntents.referenceTaken(company.id, candidate),
      );
      const row = store.paymentIntents.insert({
        id: newId("pi"),
        company_id: company.id,
        reference,
        amount: input.amount,
        currency: company.currency,
        description: input.description ?? null,
        capture_method: "automatic",
        state: "created",
        card_last4: null,
        card_brand: null,
        failure_reason: null,
        created_at: at,
        updated_at: at,
      });
      const requestId = newId("req");
      const eventId = newId("evt");
      const data = toResource(row);
      const body = JSON.stringify({ id: eventId, object: "event", type: "payment_intent.created", created_at: at, request_id: requestId, data });
      store.events.insert({
        id: eventId,
        company_id: company.id,
        type: "payment_intent.created",
        object_id: row.id,
        request_id: requestId,
        created_at: at,
        body,
      });
      const answer = withRequestId(data, requestId);
      store.idempotencyKeys.save({
        company_id: company.id,
        method: "POST",
        path: "/v1/payment_intents",
        key: sha256Hex(newId("req")),
        fingerprint: "0".repeat(64),
        status: 201,
        body: answer,
        created_ms: now,
      });
      return answer;
    };
    return { db, group: store, write };
  },
};

/** The mode named by argv[2], or exits 2 with the usage line of `script`. */
export function modeFromArgs(script) {
  const mode = process.argv[2];
  if (!(mode in CREATION_WRITES)) {
    console.error(`usage: ${script} ${Object.keys(CREATION_WRITES).join(" | ")}`);
    process.exit(2);
  }
  return mode;
}

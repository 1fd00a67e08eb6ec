import * as z from "zod";
import type { Db } from "../db.js";
import { by, clockMs, COMPUTED_FORMS, json, refersTo, seq, sha256Hex } from "../snapshot-checks.js";
import { col, defineTable } from "../table.js";

/** The idempotency records: an answer the API gave to a keyed call, kept for replay (in arrival order). */
export const IDEMPOTENCY_KEYS = defineTable(
  "idempotency_keys",
  {
    seq: col.seq(seq),
    // No foreign key in the schema, but an imported snapshot's record must name a company of it.
    company_id: col.text({ check: refersTo("companies") }),
    method: col.text({ check: by(() => z.enum(["POST", "DELETE"])) }),
    path: col.text({ check: by(() => z.string().regex(/^\/v1\/[!-~]*$/)) }),
    key: col.text({ check: sha256Hex }),
    // Empty for a call whose key was not kept with its body.
    fingerprint: col.text({ check: by(() => z.union([z.literal(""), z.string().regex(COMPUTED_FORMS.sha256Hex)])) }),
    status: col.integer({ check: by(() => z.int().min(200).max(299)) }),
    body: col.text({ check: json(() => z.record(z.string(), z.unknown())) }),
    created_ms: col.integer({ check: clockMs }),
  },
  { key: "seq" },
);
import { objectRows } from "./object-rows.js";

export interface IdempotencyScope {
  company_id: string;
  method: string;
  path: string;
  key: string;
}

/** The answer stored for a scope, with the fingerprint of the body it answered. */
export interface StoredAnswer {
  fingerprint: string;
  status: number;
  body: string;
  created_ms: number;
}

export interface StoredResponse extends IdempotencyScope, StoredAnswer {}

export function createIdempotencyKeysRepo(db: Db) {
  // Positional parameters: named ones cost every create and replay more than the lookup. Only what
  // a replay uses is read back: the scope is what was looked up, so reading it again is waste.
  const find = objectRows<StoredAnswer>(
    db.prepare("SELECT fingerprint, status, body, created_ms FROM idempotency_keys WHERE company_id = ? AND method = ? AND path = ? AND key = ?"),
  );
  // An expired key is free again: its row is replaced.
  const save = db.prepare(`
    INSERT OR REPLACE INTO idempotency_keys (company_id, method, path, key, fingerprint, status, body, created_ms)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?)`);
  return {
    find: (scope: IdempotencyScope) => find.get(scope.company_id, scope.method, scope.path, scope.key),
    save: (row: StoredResponse) => void save.run(row.company_id, row.method, row.path, row.key, row.fingerprint, row.status, row.body, row.created_ms),
  };
}

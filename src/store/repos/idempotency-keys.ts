import type { Db } from "../db.js";
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

import type { Db } from "../open.js";

export interface IdempotencyScope {
  company_id: string;
  method: string;
  path: string;
  key: string;
}

export interface StoredResponse extends IdempotencyScope {
  fingerprint: string;
  status: number;
  body: string;
  created_ms: number;
}

export function createIdempotencyKeysRepo(db: Db) {
  const find = db.prepare(
    "SELECT * FROM idempotency_keys WHERE company_id = @company_id AND method = @method AND path = @path AND key = @key",
  );
  // An expired key is free again: its row is replaced.
  const save = db.prepare(`
    INSERT OR REPLACE INTO idempotency_keys (company_id, method, path, key, fingerprint, status, body, created_ms)
    VALUES (@company_id, @method, @path, @key, @fingerprint, @status, @body, @created_ms)`);
  return {
    find: (scope: IdempotencyScope) => find.get(scope) as StoredResponse | undefined,
    save: (row: StoredResponse) => void save.run(row),
  };
}

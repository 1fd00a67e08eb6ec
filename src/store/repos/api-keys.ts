import type { Db } from "../db.js";

/** Secret keys, stored only as SHA-256 hashes: the lookup is by hash, never by the clear key. */
export function createApiKeysRepo(db: Db) {
  const insert = db.prepare("INSERT INTO api_keys (key_hash, company_id, created_at) VALUES (?, ?, ?)");
  const companyFor = db.prepare("SELECT company_id FROM api_keys WHERE key_hash = ?").pluck();
  return {
    insert: (keyHash: string, companyId: string, createdAt: string) => void insert.run(keyHash, companyId, createdAt),
    companyIdFor: (keyHash: string) => companyFor.get(keyHash) as string | undefined,
  };
}

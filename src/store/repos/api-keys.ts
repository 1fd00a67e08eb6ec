import type { Db } from "../db.js";
import { refersTo, sha256Hex, timestamp } from "../snapshot-checks.js";
import { col, defineTable } from "../table.js";

export const API_KEYS = defineTable(
  "api_keys",
  {
    key_hash: col.textKey({ check: sha256Hex }),
    company_id: col.text({ check: refersTo("companies") }, "REFERENCES companies(id)"),
    created_at: col.text({ check: timestamp }),
  },
  // A key's hash is never quoted in a snapshot refusal: a short key could be found again from it.
  { key: "company_id", secret: ["key_hash"], withoutRowid: true },
);

/** Secret keys, stored only as SHA-256 hashes: the lookup is by hash, never by the clear key. */
export function createApiKeysRepo(db: Db) {
  const insert = db.prepare("INSERT INTO api_keys (key_hash, company_id, created_at) VALUES (?, ?, ?)");
  const companyFor = db.prepare("SELECT company_id FROM api_keys WHERE key_hash = ?").pluck();
  return {
    insert: (keyHash: string, companyId: string, createdAt: string) => void insert.run(keyHash, companyId, createdAt),
    companyIdFor: (keyHash: string) => companyFor.get(keyHash) as string | undefined,
  };
}

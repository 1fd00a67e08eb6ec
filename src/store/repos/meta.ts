import type { Db } from "../db.js";

/** Small instance-wide settings (the clock's offset and high-water mark). */
export function createMetaRepo(db: Db) {
  const get = db.prepare("SELECT value FROM meta WHERE key = ?").pluck();
  const set = db.prepare("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value");
  return {
    get: (key: string) => get.get(key) as string | undefined,
    set: (key: string, value: string) => void set.run(key, value),
  };
}

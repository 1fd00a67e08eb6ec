import * as z from "zod";
import type { Db } from "../db.js";
import { by, clockText } from "../snapshot-checks.js";
import { col, defineTable, handedIn } from "../table.js";

/** Small instance-wide settings: the clock's offset and high-water mark (runtime/clock-persistence.ts writes them). */
export const META = defineTable(
  "meta",
  {
    key: col.textKey({ check: handedIn((sources) => by(() => z.enum(sources.clock.keys))) }),
    value: col.text({ check: handedIn((sources) => (value) => (typeof value === "string" ? clockText(sources, value) : "must be text")) }),
  },
  { key: "key", withoutRowid: true },
);

/** Small instance-wide settings (the clock's offset and high-water mark). */
export function createMetaRepo(db: Db) {
  const get = db.prepare("SELECT value FROM meta WHERE key = ?").pluck();
  const set = db.prepare("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value");
  return {
    get: (key: string) => get.get(key) as string | undefined,
    set: (key: string, value: string) => void set.run(key, value),
  };
}

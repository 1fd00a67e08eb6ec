import { describe, expect, it } from "vitest";
import { createStore } from "../../src/store/index.js";
import { useDatabase } from "../helpers/disposables.js";

/** The SQL texts `db.prepare` was given from now on. */
function preparedFrom(db: ReturnType<typeof useDatabase>): string[] {
  const prepared: string[] = [];
  const prepare = db.prepare.bind(db);
  db.prepare = ((sql: string) => (prepared.push(sql), prepare(sql))) as typeof db.prepare;
  return prepared;
}

describe("createStore", () => {
  it("prepares a table's statements on its first use, once, and not those of tables never used", () => {
    const db = useDatabase(":memory:");
    const prepared = preparedFrom(db);
    const store = createStore(db);
    expect(prepared.filter((sql) => /\bmeta\b/.test(sql))).toEqual([]);

    const ofMeta = () => prepared.filter((sql) => /\bmeta\b/.test(sql)).length;
    store.meta.set("seen", "yes");
    expect(store.meta.get("seen")).toBe("yes");
    const forMeta = ofMeta();
    expect(forMeta).toBeGreaterThan(0);
    store.meta.set("seen", "again");
    expect(store.meta).toBe(store.meta);
    expect(ofMeta()).toBe(forMeta);
    expect(prepared.some((sql) => /fault_rules/.test(sql))).toBe(false);

    expect(store.faultRules.ofCompany("co_none")).toEqual([]);
    expect(prepared.some((sql) => /fault_rules/.test(sql))).toBe(true);
  });

  it("lists every repository as the store's own property, as before", () => {
    const store = createStore(useDatabase(":memory:"));
    expect(Object.keys(store)).toEqual(expect.arrayContaining(["meta", "companies", "events", "faultRules", "sandboxReset"]));
  });
});

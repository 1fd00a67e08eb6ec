import { describe, expect, it } from "vitest";
import { createStore } from "../../../src/store/index.js";
import { toFaultRuleResource } from "../../../src/resources/faults/service.js";
import { columns, databaseAt, everyRow, seedVersion10, userVersion, versionBefore } from "./support.js";

/** A database of the version before 110 holding a rate_limited and a server_error rule, moved to version 110. */
function migratedTo110() {
  const old = databaseAt(versionBefore(110));
  const ids = seedVersion10(old.db);
  const insert = old.db.prepare(
    `INSERT INTO fault_rules (id, company_id, fault, method, path, times, remaining, probability, latency_ms, seed, created_at)
     VALUES (?, ?, ?, NULL, NULL, 1, 1, 1, NULL, 0, '2030-01-01T00:00:00.000Z')`,
  );
  insert.run("flt_limited", ids.company, "rate_limited");
  insert.run("flt_error", ids.company, "server_error");
  const before = everyRow(old.db);
  old.migrateTo(110);
  return { db: old.db, ids, before };
}

describe("migration 110: a rate_limited rule's Retry-After", () => {
  it("adds fault_rules.retry_after_seconds, an integer, nullable with no default", () => {
    const { db } = migratedTo110();
    expect(userVersion(db)).toBe(110);
    expect(columns(db, "fault_rules").at(-1)).toEqual({ name: "retry_after_seconds", type: "INTEGER", notnull: 0, dflt_value: null, pk: 0 });
  });

  it("keeps every earlier row; an older rate_limited rule answers Retry-After 1 as it did, the other faults none", () => {
    const { db, ids, before } = migratedTo110();
    const after = everyRow(db);
    for (const [table, rows] of Object.entries(before)) {
      expect(
        (after[table] as Record<string, unknown>[]).map(({ retry_after_seconds: _r, ...rest }) => rest),
        table,
      ).toEqual(rows);
    }
    const rules = createStore(db).faultRules.ofCompany(ids.company).map(toFaultRuleResource);
    expect(rules.map((rule) => [rule.id, rule.retry_after_seconds])).toEqual([
      ["flt_limited", 1],
      ["flt_error", null],
    ]);
  });
});

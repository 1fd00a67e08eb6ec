import { describe, expect, it } from "vitest";
import { databaseAt, everyRow, indexes, queryPlan, seedVersion10, seedVersion20, userVersion, versionBefore } from "./support.js";

/** A database of the version before 90, holding rows of the first tables, moved to version 90. */
function migratedTo90() {
  const old = databaseAt(versionBefore(90));
  const ids = seedVersion10(old.db);
  seedVersion20(old.db, ids.company);
  const before = everyRow(old.db);
  old.migrateTo(90);
  return { db: old.db, ids, before };
}

describe("migration 90: deliveries by company, for a one-company reset", () => {
  it("moves the database to version 90, every row unchanged", () => {
    const { db, before } = migratedTo90();
    expect(userVersion(db)).toBe(90);
    expect(everyRow(db)).toEqual(before);
  });

  it("finds one company's deliveries through an index rather than a scan", () => {
    const { db, ids } = migratedTo90();
    expect(indexes(db, "deliveries").map((index) => index.name)).toContain("deliveries_by_company");
    expect(queryPlan(db, "SELECT id FROM deliveries WHERE company_id = ?", ids.company)).toContain("deliveries_by_company");
  });
});

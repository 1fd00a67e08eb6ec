import { describe, expect, it } from "vitest";
import { columns, migratedWithAttempt, userVersion } from "./support.js";

describe("migration 120: which deliveries a resend made", () => {
  it("adds deliveries.resent, an integer, 0 for every delivery from before it", () => {
    const { db } = migratedWithAttempt(120);
    expect(userVersion(db)).toBe(120);
    expect(columns(db, "deliveries").at(-1)).toEqual({ name: "resent", type: "INTEGER", notnull: 1, dflt_value: "0", pk: 0 });
    expect(db.prepare("SELECT resent FROM deliveries").pluck().all()).toEqual([0]);
  });
});

import { describe, expect, it } from "vitest";
import { createStore } from "../../../src/store/index.js";
import { MIGRATIONS } from "../../../src/store/schema.js";
import { deliveriesOf } from "../../../src/resources/deliveries/service.js";
import { signaturesSent } from "../../../src/services/sent-signatures.js";
import { columns, everyRow, migratedWithAttempt, userVersion } from "./support.js";

describe("migration 100: the Service-Signature each attempt carried", () => {
  it("adds delivery_attempts.service_signature, a text, nullable with no default", () => {
    const { db } = migratedWithAttempt(100);
    expect(userVersion(db)).toBe(100);
    expect(columns(db, "delivery_attempts").at(-1)).toEqual({ name: "service_signature", type: "TEXT", notnull: 0, dflt_value: null, pk: 0 });
  });

  it("keeps every earlier row, an older attempt's signature reads as not recorded, and the API's attempt is unchanged", () => {
    const { db, ids, before, migrateTo } = migratedWithAttempt(100);
    migrateTo(MIGRATIONS.at(-1)!.version);
    const after = everyRow(db);
    for (const [table, rows] of Object.entries(before)) {
      expect(
        (after[table] as Record<string, unknown>[]).map(({ service_signature: _s, resent: _resent, ...rest }) => rest),
        table,
      ).toEqual(rows);
    }
    expect((after.delivery_attempts as { service_signature: unknown }[]).map((row) => row.service_signature)).toEqual([null]);
    const store = createStore(db);
    expect(signaturesSent(store, ["del_1"])).toEqual(new Map([["del_1", [null]]]));
    expect(deliveriesOf(store, ids.event)[0]!.attempts).toEqual([
      { attempted_at: "2030-01-01T00:00:00.000Z", status_code: 200, error: null, duration_ms: 12, response_body: null, chaos: null },
    ]);
  });
});

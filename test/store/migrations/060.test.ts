import { describe, expect, it } from "vitest";
import { createStore } from "../../../src/store/index.js";
import { MIGRATIONS } from "../../../src/store/migrations/index.js";
import { deliveriesOf } from "../../../src/webhooks/deliveries-view.js";
import { toEndpointResource } from "../../../src/services/webhook-endpoints.js";
import { columns, databaseAt, everyRow, seedVersion10, userVersion, versionBefore } from "./support.js";

/** A version-50 database with an endpoint, a delivery and a finished attempt, moved to version 60. */
function migratedFrom50() {
  const old = databaseAt(versionBefore(60));
  expect(userVersion(old.db)).toBe(50);
  const ids = seedVersion10(old.db);
  old.db
    .prepare("INSERT INTO deliveries (id, event_id, company_id, endpoint_id, url, status, attempt_count, created_at, updated_at) VALUES ('del_1', ?, ?, ?, 'http://127.0.0.1:3000/hooks', 'succeeded', 1, 'x', 'x')")
    .run(ids.event, ids.company, ids.endpoint);
  old.db.prepare("INSERT INTO delivery_attempts (delivery_id, attempted_at, status_code, duration_ms, finished) VALUES ('del_1', '2030-01-01T00:00:00.000Z', 200, 12, 1)").run();
  const before = everyRow(old.db);
  old.migrateTo(60);
  return { db: old.db, ids, before, migrateTo: old.migrateTo };
}

describe("migration 60: webhook chaos and the receiver's answer", () => {
  it("adds an endpoint's chaos and an attempt's response_body and chaos, all nullable with no default", () => {
    const { db } = migratedFrom50();
    expect(userVersion(db)).toBe(60);
    expect(columns(db, "webhook_endpoints").at(-1)).toEqual({ name: "chaos", type: "TEXT", notnull: 0, dflt_value: null, pk: 0 });
    expect(columns(db, "delivery_attempts").slice(-2)).toEqual([
      { name: "response_body", type: "TEXT", notnull: 0, dflt_value: null, pk: 0 },
      { name: "chaos", type: "TEXT", notnull: 0, dflt_value: null, pk: 0 },
    ]);
  });

  it("shows the endpoints and attempts from before it with chaos null and response_body null, every other value unchanged", () => {
    const { db, ids, before, migrateTo } = migratedFrom50();
    // The store of this paysim reads the latest schema: later steps add tables, not to these rows.
    migrateTo(MIGRATIONS.at(-1)!.version);
    const store = createStore(db);
    expect(toEndpointResource(store.webhookEndpoints.byId(ids.company, ids.endpoint)!).chaos).toBeNull();
    expect(deliveriesOf(store, ids.event)[0]!.attempts).toEqual([
      { attempted_at: "2030-01-01T00:00:00.000Z", status_code: 200, error: null, duration_ms: 12, response_body: null, chaos: null },
    ]);
    const after = everyRow(db);
    for (const [table, rows] of Object.entries(before)) {
      expect((after[table] as Record<string, unknown>[]).map(({ chaos: _c, response_body: _r, signed_t: _t, ...rest }) => rest), table).toEqual(rows);
    }
  });
});

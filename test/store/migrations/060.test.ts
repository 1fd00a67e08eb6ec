import { describe, expect, it } from "vitest";
import { createStore } from "../../../src/store/index.js";
import { MIGRATIONS } from "../../../src/store/schema.js";
import { deliveriesOf } from "../../../src/resources/deliveries/service.js";
import { toEndpointResource } from "../../../src/resources/webhook-endpoints/service.js";
import { columns, everyRow, migratedWithAttempt, userVersion } from "./support.js";

describe("migration 60: webhook chaos and the receiver's answer", () => {
  it("adds an endpoint's chaos and an attempt's response_body and chaos, all nullable with no default", () => {
    const { db } = migratedWithAttempt(60);
    expect(userVersion(db)).toBe(60);
    expect(columns(db, "webhook_endpoints").at(-1)).toEqual({ name: "chaos", type: "TEXT", notnull: 0, dflt_value: null, pk: 0 });
    expect(columns(db, "delivery_attempts").slice(-2)).toEqual([
      { name: "response_body", type: "TEXT", notnull: 0, dflt_value: null, pk: 0 },
      { name: "chaos", type: "TEXT", notnull: 0, dflt_value: null, pk: 0 },
    ]);
  });

  it("shows the endpoints and attempts from before it with chaos null and response_body null, every other value unchanged", () => {
    const { db, ids, before, migrateTo } = migratedWithAttempt(60);
    // The store of this paysim reads the latest schema: later steps add tables, not to these rows.
    migrateTo(MIGRATIONS.at(-1)!.version);
    const store = createStore(db);
    expect(toEndpointResource(store.webhookEndpoints.byId(ids.company, ids.endpoint)!).chaos).toBeNull();
    expect(deliveriesOf(store, ids.event)[0]!.attempts).toEqual([
      { attempted_at: "2030-01-01T00:00:00.000Z", status_code: 200, error: null, duration_ms: 12, response_body: null, chaos: null },
    ]);
    const after = everyRow(db);
    for (const [table, rows] of Object.entries(before)) {
      expect(
        (after[table] as Record<string, unknown>[]).map(({ chaos: _c, response_body: _r, service_signature: _s, resent: _resent, ...rest }) => rest),
        table,
      ).toEqual(rows);
    }
  });
});

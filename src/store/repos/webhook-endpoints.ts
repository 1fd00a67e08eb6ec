import type { Db } from "../db.js";

export interface WebhookEndpointRow {
  seq: number;
  id: string;
  company_id: string;
  url: string;
  secret: string;
  /** JSON array of event types, or ["*"]. */
  enabled_events: string;
  created_at: string;
  deleted_at: string | null;
  /** 1 when a `--forward-to` made it: a later start that does not name its URL removes it. */
  from_forward_to: number;
  /** The endpoint's webhook chaos settings as JSON (docs/webhooks.md); null for none. */
  chaos: string | null;
}

export function createWebhookEndpointsRepo(db: Db) {
  const insert = db.prepare(`
    INSERT INTO webhook_endpoints (id, company_id, url, secret, enabled_events, created_at, from_forward_to, chaos)
    VALUES (@id, @company_id, @url, @secret, @enabled_events, @created_at, @from_forward_to, @chaos) RETURNING *`);
  const setChaos = db.prepare("UPDATE webhook_endpoints SET chaos = ? WHERE company_id = ? AND id = ?");
  // This one, madeBeforeMarking and everyLive read every company's endpoints: the start-up's bootstrap goes over them all.
  const fromForwardTo = db.prepare("SELECT * FROM webhook_endpoints WHERE from_forward_to = 1 AND deleted_at IS NULL ORDER BY seq");
  const setFromForwardTo = db.prepare("UPDATE webhook_endpoints SET from_forward_to = ? WHERE company_id = ? AND id = ?");
  const madeBeforeMarking = db.prepare("SELECT * FROM webhook_endpoints WHERE from_forward_to = 2 AND deleted_at IS NULL ORDER BY seq");
  const live = db.prepare("SELECT * FROM webhook_endpoints WHERE company_id = ? AND deleted_at IS NULL ORDER BY seq");
  const byUrl = db.prepare("SELECT * FROM webhook_endpoints WHERE company_id = ? AND url = ? AND deleted_at IS NULL ORDER BY seq LIMIT 1");
  const setSecret = db.prepare("UPDATE webhook_endpoints SET secret = ? WHERE company_id = ? AND id = ?");
  const byId = db.prepare("SELECT * FROM webhook_endpoints WHERE company_id = ? AND id = ? AND deleted_at IS NULL");
  const softDelete = db.prepare("UPDATE webhook_endpoints SET deleted_at = ? WHERE company_id = ? AND id = ? AND deleted_at IS NULL");
  const everyLive = db.prepare("SELECT * FROM webhook_endpoints WHERE deleted_at IS NULL ORDER BY seq");
  const anyLive = db.prepare("SELECT 1 FROM webhook_endpoints WHERE company_id = ? AND deleted_at IS NULL LIMIT 1").pluck();
  const retire = db.prepare("UPDATE webhook_endpoints SET url = ?, deleted_at = ? WHERE company_id = ? AND id = ? AND deleted_at IS NULL");
  // `+company_id` keeps SQLite on the endpoint's index rather than reading all the company's deliveries.
  const retireDeliveries = db.prepare("UPDATE deliveries SET url = ? WHERE +company_id = ? AND endpoint_id = ?");
  return {
    byId: (companyId: string, id: string) => byId.get(companyId, id) as WebhookEndpointRow | undefined,
    softDelete: (companyId: string, id: string, at: string) => softDelete.run(at, companyId, id).changes === 1,
    setSecret: (companyId: string, id: string, secret: string) => void setSecret.run(secret, companyId, id),
    setChaos: (companyId: string, id: string, chaos: string | null) => void setChaos.run(chaos, companyId, id),
    insert: (row: Omit<WebhookEndpointRow, "seq" | "deleted_at">) => insert.get(row) as WebhookEndpointRow,
    /** The live endpoints a `--forward-to` made, of every company. */
    fromForwardTo: () => fromForwardTo.all() as WebhookEndpointRow[],
    setFromForwardTo: (companyId: string, id: string, marked: boolean) => void setFromForwardTo.run(marked ? 1 : 0, companyId, id),
    /** Live endpoints from before paysim marked the ones --forward-to made (migration 050): nobody knows which made them. */
    madeBeforeMarking: () => madeBeforeMarking.all() as WebhookEndpointRow[],
    live: (companyId: string) => live.all(companyId) as WebhookEndpointRow[],
    /** Whether the company has an endpoint that is not deleted. */
    hasLive: (companyId: string) => anyLive.get(companyId) === 1,
    /** The live endpoints of every company. */
    everyLive: () => everyLive.all() as WebhookEndpointRow[],
    /** Deletes the endpoint and writes `url` (its URL, cleaned) over the one it and its deliveries held. */
    retire: (companyId: string, id: string, url: string, at: string) => {
      retire.run(url, at, companyId, id);
      retireDeliveries.run(url, companyId, id);
    },
    byUrl: (companyId: string, url: string) => byUrl.get(companyId, url) as WebhookEndpointRow | undefined,
  };
}

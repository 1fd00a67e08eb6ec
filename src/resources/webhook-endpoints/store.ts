import type * as z from "zod";
import { chaosAnswerSchema, chaosSchema } from "../../domain/chaos.js";
import { isSigningSecret, SIGNING_SECRET_RULE } from "../../domain/secret-keys.js";
import { isHttpUrl, WEBHOOK_URL_MAX_LENGTH, WEBHOOK_URL_RULE } from "../../domain/webhook-url.js";
import type { Db } from "../../store/db.js";
import { by, flag, json, maybeTimestamp, member, refersTo, seq, timestamp } from "../../store/snapshot-checks.js";
import type { ColumnCheck } from "../../store/snapshot-rows.js";
import { col, defineTable, handedIn, type RowOf } from "../../store/table.js";

/** A URL a delivery went to: the one its endpoint had (masked once the endpoint was retired), an http(s) URL at most. */
export const webhookUrl: ColumnCheck = (value) =>
  typeof value === "string" && value.length <= WEBHOOK_URL_MAX_LENGTH && isHttpUrl(value) ? undefined : WEBHOOK_URL_RULE;

/** A live endpoint's URL is one the API would take; a deleted one's was masked when it was retired. */
const endpointUrl = handedIn((sources): ColumnCheck => {
  const taken = by(() => sources.schemas.newWebhookEndpoint.unwrap().shape.url as z.ZodType);
  return (value, row, known) => (row.deleted_at === null ? taken(value, row, known) : webhookUrl(value, row, known));
});

/** Chaos settings as an endpoint stores them: every member, in range, min delay not above max. */
const chaosInput = by(() => chaosSchema("chaos"));
const endpointChaos = json(
  () => chaosAnswerSchema,
  true,
  (parsed, row, known) => chaosInput(parsed, row, known),
);

export const WEBHOOK_ENDPOINTS = defineTable(
  "webhook_endpoints",
  {
    seq: col.seq(seq),
    id: col.text({ check: member((schemas) => schemas.webhookEndpoint, "id") }, "UNIQUE"),
    company_id: col.text({ check: refersTo("companies") }, "REFERENCES companies(id)"),
    url: col.text({ check: endpointUrl }),
    secret: col.text({ check: (value) => (typeof value === "string" && isSigningSecret(value) ? undefined : SIGNING_SECRET_RULE) }),
    /** JSON array of event types, or ["*"]. */
    enabled_events: col.text({
      check: handedIn((sources) => json(() => sources.schemas.webhookEndpoint.unwrap().shape.enabled_events as z.ZodType)),
    }),
    created_at: col.text({ check: timestamp }),
    deleted_at: col.nullableText({ check: maybeTimestamp }),
    /** 1 when a `--forward-to` made it: a later start that does not name its URL removes it (2: made before the marking). */
    from_forward_to: col.integer({ check: flag([0, 1, 2]) }, "DEFAULT 0"),
    /** The endpoint's webhook chaos settings as JSON (docs/webhooks.md); null for none. */
    chaos: col.nullableText({ check: endpointChaos }),
  },
  { key: "id", secret: ["secret"] },
);

export type WebhookEndpointRow = RowOf<typeof WEBHOOK_ENDPOINTS.columns>;

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

import type { Chaos } from "../domain/chaos.js";
import type { Ids } from "../domain/ids.js";
import type { Store } from "../store/index.js";
import type { WebhookEndpointRow } from "../store/repos/webhook-endpoints.js";

export interface WebhookEndpointResource {
  id: string;
  object: "webhook_endpoint";
  url: string;
  enabled_events: string[];
  secret: string;
  /** Webhook chaos on this endpoint (SPEC §13.1); null when none. */
  chaos: Chaos | null;
  created_at: string;
}

/** An endpoint's stored chaos settings, or null. */
export function chaosOf(row: Pick<WebhookEndpointRow, "chaos">): Chaos | null {
  return row.chaos === null ? null : (JSON.parse(row.chaos) as Chaos);
}

/** Chaos settings as stored: JSON, or null for none. */
export const storedChaos = (chaos: Chaos | null | undefined): string | null => (chaos ? JSON.stringify(chaos) : null);

export function toEndpointResource(row: WebhookEndpointRow): WebhookEndpointResource {
  return {
    id: row.id,
    object: "webhook_endpoint",
    url: row.url,
    enabled_events: JSON.parse(row.enabled_events) as string[],
    secret: row.secret,
    chaos: chaosOf(row),
    created_at: row.created_at,
  };
}

/** A new endpoint with its `whsec_…` signing secret (generated unless given) and its chaos, if any; `ids` makes its id and secret. */
export function insertEndpoint(
  store: Store,
  ids: Ids,
  endpoint: {
    companyId: string;
    url: string;
    secret?: string | undefined;
    enabledEvents: readonly string[];
    createdAt: string;
    fromForwardTo?: boolean;
    chaos?: Chaos | null | undefined;
  },
): WebhookEndpointRow {
  return store.webhookEndpoints.insert({
    id: ids.newId("we"),
    company_id: endpoint.companyId,
    url: endpoint.url,
    secret: endpoint.secret ?? ids.newSecret("whsec_"),
    enabled_events: JSON.stringify(endpoint.enabledEvents),
    created_at: endpoint.createdAt,
    from_forward_to: endpoint.fromForwardTo ? 1 : 0,
    chaos: storedChaos(endpoint.chaos),
  });
}

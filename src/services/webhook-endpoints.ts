import type { Ids } from "../domain/ids.js";
import type { Store } from "../store/index.js";
import type { WebhookEndpointRow } from "../store/repos/webhook-endpoints.js";

export interface WebhookEndpointResource {
  id: string;
  object: "webhook_endpoint";
  url: string;
  enabled_events: string[];
  secret: string;
  created_at: string;
}

export function toEndpointResource(row: WebhookEndpointRow): WebhookEndpointResource {
  return {
    id: row.id,
    object: "webhook_endpoint",
    url: row.url,
    enabled_events: JSON.parse(row.enabled_events) as string[],
    secret: row.secret,
    created_at: row.created_at,
  };
}

/** A new endpoint with its `whsec_…` signing secret (generated unless given); `ids` makes its id and secret. */
export function insertEndpoint(
  store: Store,
  ids: Ids,
  endpoint: { companyId: string; url: string; secret?: string | undefined; enabledEvents: readonly string[]; createdAt: string; fromForwardTo?: boolean },
): WebhookEndpointRow {
  return store.webhookEndpoints.insert({
    id: ids.newId("we"),
    company_id: endpoint.companyId,
    url: endpoint.url,
    secret: endpoint.secret ?? ids.newSecret("whsec_"),
    enabled_events: JSON.stringify(endpoint.enabledEvents),
    created_at: endpoint.createdAt,
    from_forward_to: endpoint.fromForwardTo ? 1 : 0,
  });
}

import * as z from "zod";
import { idOf, timestampSchema } from "../domain/answer-schemas.js";
import { EVENT_TYPES } from "../domain/events.js";
import type { Ids } from "../domain/ids.js";
import type { Store } from "../store/index.js";
import type { WebhookEndpointRow } from "../store/repos/webhook-endpoints.js";

/** A webhook endpoint as the API shows it (SPEC §7): the type `toEndpointResource` builds, and the OpenAPI document's schema. */
export const webhookEndpointSchema = z.strictObject({
  id: idOf("we"),
  object: z.literal("webhook_endpoint"),
  url: z.string(),
  enabled_events: z.array(z.enum(["*", ...EVENT_TYPES])).min(1),
  secret: z.string().regex(/^whsec_/),
  created_at: timestampSchema,
});

export type WebhookEndpointResource = z.infer<typeof webhookEndpointSchema>;

/** What `DELETE /v1/webhook_endpoints/:id` answers. */
export const deletedEndpointSchema = z.strictObject({
  id: idOf("we"),
  object: z.literal("webhook_endpoint"),
  deleted: z.literal(true),
});

export function deletedEndpointResource(id: string): z.infer<typeof deletedEndpointSchema> {
  return { id, object: "webhook_endpoint", deleted: true };
}

export function toEndpointResource(row: WebhookEndpointRow): WebhookEndpointResource {
  return {
    id: row.id,
    object: "webhook_endpoint",
    url: row.url,
    enabled_events: JSON.parse(row.enabled_events) as WebhookEndpointResource["enabled_events"],
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

import type { CreateEndpointInput, WebhookEndpointResource } from "./contract.js";
import type { Chaos } from "../../domain/chaos.js";
import { ApiError } from "../../domain/errors.js";
import type { Ids } from "../../domain/ids.js";
import type { Clock } from "../../runtime/clock.js";
import type { Store } from "../../store/index.js";
import type { WebhookEndpointRow } from "./store.js";
import type { OutboxPort } from "../../services/outbox-port.js";

/**
 * The webhook endpoints of each company (docs/webhooks.md): registered from a validated body
 * (whether the API or the dashboard's form sent it), listed, read, and deleted with their
 * pending deliveries stopped.
 */
export function createWebhookEndpointService({ store, ids, clock, outbox }: { store: Store; ids: Ids; clock: Clock; outbox: OutboxPort }) {
  return {
    create(companyId: string, input: CreateEndpointInput): WebhookEndpointResource {
      const row = insertEndpoint(store, ids, {
        companyId,
        url: input.url,
        enabledEvents: input.enabled_events ?? ["*"],
        createdAt: clock.nowIso(),
        chaos: input.chaos,
      });
      return toEndpointResource(row);
    },

    /** The company's live endpoints, oldest first. */
    list: (companyId: string): WebhookEndpointResource[] => store.webhookEndpoints.live(companyId).map(toEndpointResource),

    /** One of the company's live endpoints; 404 for an unknown id or another company's. */
    get(companyId: string, id: string): WebhookEndpointRow {
      const row = store.webhookEndpoints.byId(companyId, id);
      if (!row) throw new ApiError("not_found", `No such webhook endpoint: "${id}".`);
      return row;
    },

    /** Deletes the endpoint: it gets no new deliveries, and its pending ones stop. */
    remove(row: WebhookEndpointRow): void {
      outbox.removeEndpoint(row.company_id, row.id);
    },
  };
}

export type WebhookEndpointService = ReturnType<typeof createWebhookEndpointService>;

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
    enabled_events: JSON.parse(row.enabled_events) as WebhookEndpointResource["enabled_events"],
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

export type { WebhookEndpointResource } from "./contract.js";

import * as z from "zod";
import { idOf, timestampSchema } from "../domain/answer-schemas.js";
import { chaosAnswerSchema, chaosSchema, type Chaos } from "../domain/chaos.js";
import { EVENT_TYPES } from "../domain/events.js";
import type { Ids } from "../domain/ids.js";
import { maskInput } from "../domain/masking.js";
import { need, parseOrThrow } from "../domain/validation.js";
import {
  CARD_NUMBER_IN_URL_RULE,
  hasNoCardNumber,
  isHttpUrl,
  WEBHOOK_URL_DESCRIPTION,
  WEBHOOK_URL_MAX_LENGTH,
  WEBHOOK_URL_PATTERN,
  WEBHOOK_URL_RULE,
} from "../domain/webhook-url.js";
import type { Clock } from "../runtime/clock.js";
import type { Store } from "../store/index.js";
import type { WebhookEndpointRow } from "../store/repos/webhook-endpoints.js";

/** A webhook endpoint as the API shows it (docs/webhooks.md): the type `toEndpointResource` builds, and the OpenAPI document's schema. */
export const webhookEndpointSchema = z.strictObject({
  id: idOf("we"),
  object: z.literal("webhook_endpoint"),
  url: z.string(),
  enabled_events: z.array(z.enum(["*", ...EVENT_TYPES])).min(1),
  secret: z.string().regex(/^whsec_/),
  /** Webhook chaos on this endpoint (docs/webhooks.md); null when none. */
  chaos: chaosAnswerSchema.nullable(),
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

const ENABLED_EVENTS_RULE = `enabled_events must be a list of event types (${EVENT_TYPES.join(", ")}) or ["*"].`;

/** The body of `POST /v1/webhook_endpoints` (docs/webhooks.md): what `createEndpoint` accepts, and the OpenAPI document's request schema. */
export const createEndpointSchema = z.strictObject({
  url: z
    .string({ error: need("url", "the http:// or https:// address that receives the events") })
    .max(WEBHOOK_URL_MAX_LENGTH, { error: `url must be at most ${WEBHOOK_URL_MAX_LENGTH} characters.` })
    .refine(isHttpUrl, { error: `url ${WEBHOOK_URL_RULE}.` })
    .refine(hasNoCardNumber, { error: `url ${CARD_NUMBER_IN_URL_RULE}.` })
    .meta({ format: "uri", pattern: WEBHOOK_URL_PATTERN, description: WEBHOOK_URL_DESCRIPTION }),
  enabled_events: z
    .array(z.enum(["*", ...EVENT_TYPES], { error: ENABLED_EVENTS_RULE }), {
      error: need("enabled_events", `a list of event types (${EVENT_TYPES.join(", ")}) or ["*"]`),
    })
    .min(1, { error: "enabled_events must list at least one event type, or \"*\"." })
    .optional(),
  chaos: chaosSchema("chaos").nullable().optional(),
});

/**
 * Registers an endpoint for the company from a `POST /v1/webhook_endpoints` body: the API and
 * the dashboard both create endpoints here, so both refuse the same input with the same 400
 * message naming the field, and store nothing then.
 */
export function createEndpoint({ store, ids, clock }: { store: Store; ids: Ids; clock: Clock }, companyId: string, body: unknown): WebhookEndpointResource {
  // Masked here, where the API and the dashboard's form meet, as faults.add does: one masking step.
  const input = parseOrThrow(createEndpointSchema, maskInput(body));
  const row = insertEndpoint(store, ids, { companyId, url: input.url, enabledEvents: input.enabled_events ?? ["*"], createdAt: clock.nowIso(), chaos: input.chaos });
  return toEndpointResource(row);
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

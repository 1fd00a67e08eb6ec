/** The contracts of /v1/webhook_endpoints (docs/webhooks.md). */
import * as z from "zod";
import { idOf, timestampSchema, withRequestIdSchema } from "../../domain/answer-schemas.js";
import { listQuerySchema } from "../../contracts/common.js";
import { chaosAnswerSchema, chaosSchema } from "../../domain/chaos.js";
import { EVENT_TYPES } from "../../domain/events.js";
import { need } from "../../domain/validation.js";
import {
  CARD_NUMBER_IN_URL_RULE,
  hasNoCardNumber,
  isHttpUrl,
  WEBHOOK_URL_DESCRIPTION,
  WEBHOOK_URL_MAX_LENGTH,
  WEBHOOK_URL_PATTERN,
  WEBHOOK_URL_RULE,
} from "../../domain/webhook-url.js";

/** A webhook endpoint as the API shows it (docs/webhooks.md): the type `toEndpointResource` builds, and the OpenAPI document's schema. */
export const webhookEndpointSchema = z.lazy(() =>
  z.strictObject({
    id: idOf("we"),
    object: z.literal("webhook_endpoint"),
    url: z.string(),
    enabled_events: z.array(z.enum(["*", ...EVENT_TYPES])).min(1),
    secret: z.string().regex(/^whsec_/),
    /** Webhook chaos on this endpoint (docs/webhooks.md); null when none. */
    chaos: chaosAnswerSchema.nullable(),
    created_at: timestampSchema,
  }),
);

export type WebhookEndpointResource = z.infer<typeof webhookEndpointSchema>;

/** What `DELETE /v1/webhook_endpoints/:id` answers. */
export const deletedEndpointSchema = z.lazy(() =>
  z.strictObject({
    id: idOf("we"),
    object: z.literal("webhook_endpoint"),
    deleted: z.literal(true),
  }),
);

export function deletedEndpointResource(id: string): z.infer<typeof deletedEndpointSchema> {
  return { id, object: "webhook_endpoint", deleted: true };
}

const ENABLED_EVENTS_RULE = `enabled_events must be a list of event types (${EVENT_TYPES.join(", ")}) or ["*"].`;

/** The body of `POST /v1/webhook_endpoints` (docs/webhooks.md): what `createEndpoint` accepts, and the OpenAPI document's request schema. */
export const createEndpointInput = z.lazy(() =>
  z.strictObject({
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
      .min(1, { error: 'enabled_events must list at least one event type, or "*".' })
      .optional(),
    chaos: chaosSchema("chaos").nullable().optional(),
  }),
);

export type CreateEndpointInput = z.output<typeof createEndpointInput>;

export const webhookEndpointAnswer = withRequestIdSchema(webhookEndpointSchema);

/** The query of `GET /v1/webhook_endpoints`: a page of the endpoints, oldest first. */
export const listWebhookEndpointsQuery = listQuerySchema("we");

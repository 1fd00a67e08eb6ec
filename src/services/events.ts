import * as z from "zod";
import { idOf, requestIdSchema, timestampSchema } from "../domain/answer-schemas.js";
import { EVENT_TYPES } from "../domain/events.js";
import type { StoredEvent } from "../store/repos/events.js";

/**
 * An event as the API shows it: the stored body, parsed. The body is the event's JSON byte for
 * byte as every delivery sends it, so the resource has no other definition.
 */
export function eventResource(event: Pick<StoredEvent, "body">): EventResource {
  return JSON.parse(event.body) as EventResource;
}

/**
 * An event (docs/webhooks.md): the type of the body unit-of-work.ts stores and sends, and the OpenAPI
 * document's schema. Its `request_id` is the request that caused it; `data` a masked snapshot.
 */
export const eventSchema = z.strictObject({
  id: idOf("evt"),
  object: z.literal("event"),
  type: z.enum(EVENT_TYPES),
  created_at: timestampSchema,
  request_id: requestIdSchema,
  data: z.record(z.string(), z.unknown()),
});

export type EventResource = z.infer<typeof eventSchema>;

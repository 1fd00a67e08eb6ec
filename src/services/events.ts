import type { StoredEvent } from "../store/repos/events.js";

/**
 * An event as the API shows it: the stored body, parsed. The body is the event's JSON byte for
 * byte as every delivery sends it, so the resource has no other definition.
 */
export function eventResource(event: Pick<StoredEvent, "body">): Record<string, unknown> {
  return JSON.parse(event.body) as Record<string, unknown>;
}

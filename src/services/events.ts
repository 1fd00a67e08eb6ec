import type { EventResource } from "../contracts/events.js";
import type { StoredEvent } from "../store/repos/events.js";

/**
 * An event as the API shows it: the stored body, parsed. The body is the event's JSON byte for
 * byte as every delivery sends it, so the resource has no other definition (contracts/events.ts).
 */
export function eventResource(event: Pick<StoredEvent, "body">): EventResource {
  return JSON.parse(event.body) as EventResource;
}

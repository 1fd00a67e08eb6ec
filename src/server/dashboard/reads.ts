import type { DeliveryView } from "../../resources/deliveries/contract.js";
import type { EventService } from "../../resources/events/service.js";
import type { StoredEvent } from "../../resources/events/store.js";
import type { EventSummary } from "./views/event-parts.js";

/** How many rows a dashboard list shows at once. */
export const PAGE_SIZE = 50;

/** An event with its deliveries, as the tables show it. */
export interface ListedEvent {
  event: EventSummary;
  deliveries: DeliveryView[];
}

/** One of the company's events, by its stored body (its resource, byte for byte), with its deliveries. */
export function listedEvent(events: EventService, companyId: string, body: string | Pick<StoredEvent, "body">): ListedEvent {
  const event = JSON.parse(typeof body === "string" ? body : body.body) as EventSummary;
  return { event, deliveries: events.deliveriesOf(companyId, event.id) };
}

/** The events about one object, newest first. */
export function eventsAbout(events: EventService, companyId: string, objectId: string): ListedEvent[] {
  return events.about(companyId, objectId, PAGE_SIZE).map((row) => listedEvent(events, companyId, row));
}

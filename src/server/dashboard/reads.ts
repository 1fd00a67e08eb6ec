import type { Store } from "../../store/index.js";
import type { StoredEvent } from "../../store/repos/events.js";
import { deliveriesOf, type DeliveryView } from "../../services/deliveries-view.js";
import type { EventSummary } from "./views/event-parts.js";

/** How many rows a dashboard list shows at once. */
export const PAGE_SIZE = 50;

/** An event with its deliveries, as the tables show it. */
export interface ListedEvent {
  event: EventSummary;
  deliveries: DeliveryView[];
}

/** An event's stored body (its resource, byte for byte), with its deliveries. */
export function listedEvent(store: Store, body: string | Pick<StoredEvent, "body">): ListedEvent {
  const event = JSON.parse(typeof body === "string" ? body : body.body) as EventSummary;
  return { event, deliveries: deliveriesOf(store, event.id) };
}

/** The events about one object, newest first. */
export function eventsAbout(store: Store, companyId: string, objectId: string): ListedEvent[] {
  return store.events.forObject(companyId, objectId, PAGE_SIZE).map((row) => listedEvent(store, row));
}

import type { EventResource, EventWithDeliveries } from "./contract.js";
import type { DeliveryView } from "../deliveries/contract.js";
import { ApiError } from "../../domain/errors.js";
import type { Store } from "../../store/index.js";
import type { StoredEvent } from "./store.js";
import type { PageQuery } from "../../store/repos/paging.js";
import { eventDeliveries } from "../deliveries/service.js";
import { signaturesSent } from "../../services/sent-signatures.js";
import type { OutboxPort } from "../../services/outbox-port.js";

/**
 * An event as the API shows it: the stored body, parsed. The body is the event's JSON byte for
 * byte as every delivery sends it, so the resource has no other definition (resources/events/contract.ts).
 */
export function eventResource(event: Pick<StoredEvent, "body">): EventResource {
  return JSON.parse(event.body) as EventResource;
}

/** The event as `GET /v1/events/:id` shows it, deliveries included. */
export function eventWithDeliveries(store: Store, event: Pick<StoredEvent, "id" | "company_id" | "body">): EventWithDeliveries {
  return { ...eventResource(event), deliveries: eventDeliveries(store, event) };
}

/** The events of each company (docs/webhooks.md): listed, read with their deliveries, resent. */
export function createEventService({ store, outbox }: { store: Store; outbox: OutboxPort }) {
  return {
    /** A page of the company's events, newest first, as JSON texts. */
    list: (companyId: string, query: PageQuery) => store.events.list(companyId, query),

    /** Where an event sits in its company's list, for `starting_after`; undefined when it is not there. */
    seqOf: (companyId: string, id: string) => store.events.seqOf(companyId, id),

    /** One of the company's events, or undefined (an unknown id, or another company's). */
    find: (companyId: string, id: string): StoredEvent | undefined => store.events.byId(companyId, id),

    /** The events about one object (a payment intent, a payout), newest first, at most `limit`. */
    about: (companyId: string, objectId: string, limit: number): StoredEvent[] => store.events.forObject(companyId, objectId, limit),

    /** The deliveries of one of the company's events, with their attempts. */
    deliveriesOf: (companyId: string, eventId: string): DeliveryView[] => eventDeliveries(store, { company_id: companyId, id: eventId }),

    /** The id of the event a delivery of the company's carries, or undefined (an unknown delivery, or another company's). */
    eventOfDelivery: (companyId: string, deliveryId: string): string | undefined => store.deliveries.eventIdOf(companyId, deliveryId),

    /** The exact signature each attempt of these deliveries carried, numbered as the attempts are. */
    signaturesSent: (deliveryIds: readonly string[]) => signaturesSent(store, deliveryIds),

    /** One of the company's events; 404 for an unknown id or another company's. */
    get(companyId: string, id: string): StoredEvent {
      const event = store.events.byId(companyId, id);
      if (!event) throw new ApiError("not_found", `No such event: "${id}".`);
      return event;
    },

    /** The event with its deliveries and their attempts, as a read by id shows it. */
    withDeliveries: (event: Pick<StoredEvent, "id" | "company_id" | "body">): EventWithDeliveries => eventWithDeliveries(store, event),

    /** A new delivery to every endpoint listening now, whatever happened to the earlier ones; in the caller's unit of work. */
    resend(event: StoredEvent): void {
      outbox.resend(event);
    },
  };
}

export type EventService = ReturnType<typeof createEventService>;

/** @jsxImportSource hono/jsx */
import type { DeliveryView } from "../../../resources/deliveries/service.js";
import { ObjectLink, Pill, Time } from "./parts.js";

/** An event as the list shows it: read from its stored body. */
export interface EventSummary {
  id: string;
  type: string;
  created_at: string;
  request_id: string;
  data: Record<string, unknown>;
}

/** The object an event is about: the id in its data, when it has one. */
export function objectIdOf(event: EventSummary): string | null {
  return typeof event.data.id === "string" ? event.data.id : null;
}

/** One delivery's state in a few words: status, and the last answer. */
export function deliveryLabel(delivery: DeliveryView): string {
  const last = delivery.attempts.at(-1);
  if (!last) return `${delivery.status} · not yet sent`;
  if (last.status_code !== null) return `${delivery.status} · ${last.status_code}`;
  return `${delivery.status} · no answer`;
}

/** The deliveries of an event as pills, or a word saying there are none. */
export function DeliveryPills({ deliveries }: { deliveries: readonly DeliveryView[] }) {
  if (deliveries.length === 0) return <span class="muted">no endpoint</span>;
  return (
    <span class="pills">
      {deliveries.map((delivery) => (
        <span title={delivery.url}>
          <Pill value={delivery.status}>{deliveryLabel(delivery)}</Pill>
        </span>
      ))}
    </span>
  );
}

/** A row of the events table, its links under the session's `base`; the live stream sends the same markup for new events. */
export function EventRow({
  base,
  event,
  deliveries,
  fresh = false,
}: {
  base: string;
  event: EventSummary;
  deliveries: readonly DeliveryView[];
  fresh?: boolean;
}) {
  return (
    <tr id={`event-${event.id}`} class={fresh ? "fresh" : undefined}>
      <td class="time">
        <Time iso={event.created_at} />
      </td>
      <td>
        <a href={`${base}/events/${event.id}`}>{event.type}</a>
      </td>
      <td class="hide-narrow">
        <ObjectLink base={base} id={objectIdOf(event)} />
      </td>
      <td id={`deliveries-${event.id}`}>
        <DeliveryPills deliveries={deliveries} />
      </td>
    </tr>
  );
}

type ListedEvents = readonly { event: EventSummary; deliveries: readonly DeliveryView[] }[];

/** An object's events, newest first, as a compact table (payment intent and payout pages). */
export function EventsTable({ base, events }: { base: string; events: ListedEvents }) {
  if (events.length === 0) return <p class="empty">No events yet.</p>;
  return <EventRowsTable base={base} events={events} />;
}

/** The table of events, one row each; `rowsId` names its body for the events page's live script, which adds rows to it. */
export function EventRowsTable({ base, events, rowsId }: { base: string; events: ListedEvents; rowsId?: string }) {
  return (
    <div class="table-scroll">
      <table class="stack">
        <thead>
          <tr>
            <th scope="col">Time</th>
            <th scope="col">Type</th>
            <th scope="col" class="hide-narrow">
              Object
            </th>
            <th scope="col">Deliveries</th>
          </tr>
        </thead>
        <tbody id={rowsId}>
          {events.map(({ event, deliveries }) => (
            <EventRow base={base} event={event} deliveries={deliveries} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

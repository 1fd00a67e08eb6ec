/** @jsxImportSource hono/jsx */
import { streamSSE } from "hono/streaming";
import type { DeliveryAttempted, EventCreated } from "../../../bus.js";
import { EVENT_TYPES, isEventType } from "../../../domain/events.js";
import { maskText } from "../../../domain/masking.js";
import { sessionBase } from "../auth.js";
import { baseOf, companyOf, linkTo, type DashboardApp, type DashboardKit } from "../kit.js";
import { listedEvent, PAGE_SIZE } from "../reads.js";
import { DeliveryPills, EventRow, EventRowsTable } from "../views/event-parts.js";
import { LIVE_SCRIPT } from "../views/live-script.js";
import { PageHead } from "../views/parts.js";

/** The events list (newest first, filtered by type) and the stream that keeps it live. */
export function eventsPage(app: DashboardApp, { deps, page }: DashboardKit) {
  const { events, bus } = deps;

  app.get("/events", (c) => {
    const company = companyOf(c);
    const type = c.req.query("type") || undefined;
    const after = c.req.query("starting_after");
    if (type !== undefined && !isEventType(type)) {
      const body = (
        <PageHead
          title="Events"
          lead={`"${maskText(type)}" is not an event type. Pick one from the list.`}
          back={{ href: linkTo(c, "/events"), label: "All events" }}
        />
      );
      return page(c, { title: "Events", section: "events", status: 400 }, body);
    }
    const beforeSeq = after === undefined ? undefined : events.seqOf(company.id, after);
    const listed = events.list(company.id, { limit: PAGE_SIZE, filter: type, beforeSeq }).json.map((json) => listedEvent(events, company.id, json));
    const last = listed.at(-1)?.event.id;
    const stream = linkTo(c, `/events/stream${type ? `?type=${encodeURIComponent(type)}` : ""}`);
    const olderHref = last && linkTo(c, `/events?${new URLSearchParams({ ...(type ? { type } : {}), starting_after: last }).toString()}`);
    const hasMore = listed.length === PAGE_SIZE;
    const body = (
      <div data-stream={stream}>
        <PageHead
          title="Events"
          lead={
            <>
              <span class="live">Live: new events appear here as they happen</span>
              <span class="not-live">Newest first. Reload to see new events.</span>
            </>
          }
        >
          <form class="filter" method="get" action={linkTo(c, "/events")}>
            <div class="field">
              <label for="type">Event type</label>
              <select id="type" name="type">
                <option value="">All types</option>
                {EVENT_TYPES.map((t) => (
                  <option value={t} selected={t === type}>
                    {t}
                  </option>
                ))}
              </select>
            </div>
            <button class="btn" type="submit">
              Filter
            </button>
          </form>
        </PageHead>
        <section class="card flush" aria-label="Events">
          <EventRowsTable base={baseOf(c)} events={listed} rowsId="event-rows" />
          {listed.length === 0 ? (
            <p class="empty" id="no-events">
              No events{type ? ` of type ${type}` : ""} yet. Create a payment intent or run <code>paysim trigger</code>.
            </p>
          ) : null}
          {hasMore && olderHref ? (
            <p class="pager">
              <a href={olderHref}>Older events →</a>
            </p>
          ) : null}
        </section>
      </div>
    );
    return page(c, { title: "Events", section: "events", script: after === undefined ? LIVE_SCRIPT : undefined }, body);
  });

  /**
   * Server-sent events for this session's company only: `event` carries the new
   * row's markup, `delivery` an event's new delivery pills. Ends when the
   * browser goes away, and at once when the session ends (sign-out).
   */
  app.get("/events/stream", (c) => {
    const company = companyOf(c);
    const session = c.get("session");
    const type = c.req.query("type") || undefined;
    return streamSSE(c, async (stream) => {
      let finish = () => {};
      const finished = new Promise<void>((resolve) => (finish = resolve));
      stream.onAbort(finish);
      session.ended.addEventListener("abort", finish, { once: true });
      if (session.ended.aborted) finish();
      const send = (event: string, data: string) => {
        if (session.ended.aborted) return finish();
        void stream.writeSSE({ event, data }).catch(finish);
      };
      const onEvent = async (created: EventCreated) => {
        if (created.companyId !== company.id || (type !== undefined && created.type !== type)) return;
        const stored = events.find(company.id, created.id);
        if (!stored) return;
        const { event, deliveries } = listedEvent(events, company.id, stored);
        send("event", (await (<EventRow base={sessionBase(session)} event={event} deliveries={deliveries} fresh />)).toString());
      };
      const onAttempt = async (attempted: DeliveryAttempted) => {
        const stored = events.find(company.id, attempted.eventId);
        if (!stored) return; // another company's event
        const { deliveries } = listedEvent(events, company.id, stored);
        const html = (await (<DeliveryPills deliveries={deliveries} />)).toString();
        send("delivery", JSON.stringify({ eventId: attempted.eventId, html }));
      };
      bus.on("event.created", onEvent);
      bus.on("delivery.attempted", onAttempt);
      // A comment first: the browser's EventSource reports "open" once the stream starts.
      await stream.write(": connected\n\n");
      await finished;
      bus.off("event.created", onEvent);
      bus.off("delivery.attempted", onAttempt);
      session.ended.removeEventListener("abort", finish);
    });
  });
}

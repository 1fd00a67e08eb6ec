/** @jsxImportSource hono/jsx */
import { streamSSE } from "hono/streaming";
import type { DeliveryAttempted, EventCreated } from "../../bus.js";
import { EVENT_TYPES, isEventType } from "../../domain/events.js";
import { maskText } from "../../domain/masking.js";
import { sessionBase } from "../../server/dashboard/auth.js";
import { baseOf, companyOf, linkTo, type DashboardApp, type DashboardKit } from "../../server/dashboard/kit.js";
import { listedEvent, PAGE_SIZE } from "../../server/dashboard/reads.js";
import { DeliveryPills, EventRow, EventRowsTable, deliveryLabel, objectIdOf } from "../../server/dashboard/views/event-parts.js";
import { LIVE_SCRIPT } from "../../server/dashboard/views/live-script.js";
import { PageHead, Csrf, ObjectLink, Pill, Time } from "../../server/dashboard/views/parts.js";
import { eventResource } from "./service.js";
import type { DeliveryView } from "../deliveries/service.js";
import { VERSION } from "../../version.js";
import { resendEvent } from "./operations.js";

/** The events list (newest first, filtered by type), the stream that keeps it live, and each event's own page. */
export function eventsPage(app: DashboardApp, kit: DashboardKit) {
  const { deps, page } = kit;
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
  // After the stream: /events/stream is not an event id.
  eventPage(app, kit);
}

/** What the chaos work (docs/webhooks.md) adds to an attempt; shown once the API's attempts carry it. */
type AttemptView = DeliveryView["attempts"][number] & { chaos?: string | null; response_body?: string | null };

/** Every attempt of one delivery, oldest first. */
function Attempts({ attempts }: { attempts: readonly AttemptView[] }) {
  if (attempts.length === 0) return <p class="muted">No attempt yet.</p>;
  return (
    <div class="table-scroll attempts">
      <table class="stack">
        <thead>
          <tr>
            <th scope="col" class="hide-narrow">
              #
            </th>
            <th scope="col">Time</th>
            <th scope="col">Status</th>
            <th scope="col">Duration</th>
            <th scope="col">Error</th>
            <th scope="col">Chaos</th>
            <th scope="col">Answer (first 1 KiB)</th>
          </tr>
        </thead>
        <tbody>
          {attempts.map((attempt, index) => (
            <tr>
              <td class="num hide-narrow">{index + 1}</td>
              <td class="time" data-label="Sent">
                <Time iso={attempt.attempted_at} />
              </td>
              <td data-label="Status">
                {attempt.status_code === null ? (
                  <span class="muted">—</span>
                ) : (
                  <Pill value={attempt.status_code >= 200 && attempt.status_code < 300 ? "succeeded" : "failed"}>{String(attempt.status_code)}</Pill>
                )}
              </td>
              <td class="num" data-label="Took">
                {attempt.duration_ms === null ? "—" : `${attempt.duration_ms} ms`}
              </td>
              <td data-label="Error">{attempt.error ?? <span class="muted">—</span>}</td>
              <td data-label="Chaos">{attempt.chaos ?? <span class="muted">—</span>}</td>
              <td data-label="Answer">{attempt.response_body ? <code>{attempt.response_body}</code> : <span class="muted">—</span>}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The headers every attempt of this event carried; the signature is made afresh per attempt. */
function SentHeaders({ eventId }: { eventId: string }) {
  const lines = [
    "Content-Type: application/json",
    `Service-Event-Id: ${eventId}`,
    `User-Agent: paysim/${VERSION}`,
    'Service-Signature: t=<unix seconds when the attempt was sent>,v1=<hex HMAC-SHA256(endpoint secret, "<t>.<body>")>',
  ];
  return (
    <>
      <pre class="wrap" aria-label="Headers sent">
        {lines.join("\n")}
      </pre>
      <p class="muted attempts">Each delivery below lists the exact Service-Signature every attempt carried.</p>
    </>
  );
}

/** The exact Service-Signature of each attempt, numbered as the attempts table is. */
function SignaturesSent({ signatures }: { signatures: readonly (string | null)[] }) {
  if (signatures.length === 0) return null;
  return (
    <div class="signatures">
      <h3>Signature sent, per attempt</h3>
      <ol>
        {signatures.map((signature) => (
          <li>
            {signature === null ? (
              <span class="muted">
                not recorded (the attempt is still under way or was cut off, or paysim did not yet keep each attempt's t when it was sent)
              </span>
            ) : (
              <code>Service-Signature: {signature}</code>
            )}
          </li>
        ))}
      </ol>
    </div>
  );
}

/** One event: its data, each delivery with every attempt, the headers sent, and Resend. */
function eventPage(app: DashboardApp, { deps, page, act, call }: DashboardKit) {
  const { events } = deps;

  app.get("/events/:id", (c) => {
    const company = companyOf(c);
    const stored = events.get(company.id, c.req.param("id"));
    const { event, deliveries } = listedEvent(events, company.id, stored);
    const signatures = events.signaturesSent(deliveries.map((delivery) => delivery.id));
    const csrf = c.get("session").csrf;
    const body = (
      <div data-stream={linkTo(c, "/events/stream")} data-event={event.id}>
        <PageHead title={event.type} lead={<span class="mono">{event.id}</span>} back={{ href: linkTo(c, "/events"), label: "Events" }}>
          <form class="inline" method="post" action={linkTo(c, `/events/${event.id}/resend`)}>
            <Csrf token={csrf} />
            <button class="btn primary" type="submit">
              Resend
            </button>
          </form>
        </PageHead>
        <div class="grid two">
          <section class="card">
            <h2>Event</h2>
            <dl class="facts">
              <dt>Created</dt>
              <dd>
                <Time iso={event.created_at} />
              </dd>
              <dt>Object</dt>
              <dd>
                <ObjectLink base={baseOf(c)} id={objectIdOf(event)} />
              </dd>
              <dt>Request</dt>
              <dd class="mono">{event.request_id}</dd>
              <dt>Deliveries</dt>
              <dd>{deliveries.length === 0 ? "none: no endpoint listened when it happened" : String(deliveries.length)}</dd>
            </dl>
          </section>
          <section class="card">
            <h2>Headers sent with each attempt</h2>
            <SentHeaders eventId={event.id} />
          </section>
        </div>
        <section class="card">
          <h2>Deliveries</h2>
          {deliveries.length === 0 ? <p class="muted">No endpoint was listening for this event. Add one under Webhook endpoints, then Resend.</p> : null}
          {deliveries.map((delivery) => (
            <div class="delivery" id={`delivery-${delivery.id}`}>
              <div class="delivery-head">
                <Pill value={delivery.status}>{deliveryLabel(delivery)}</Pill>
                <span class="mono">{delivery.url}</span>
              </div>
              <p class="muted">
                Endpoint <span class="mono">{delivery.endpoint_id}</span>
                {delivery.next_attempt_at ? (
                  <>
                    {" "}
                    · next attempt <Time iso={delivery.next_attempt_at} />
                  </>
                ) : null}
              </p>
              <Attempts attempts={delivery.attempts} />
              <SignaturesSent signatures={signatures.get(delivery.id) ?? []} />
            </div>
          ))}
        </section>
        <section class="card">
          <h2>Body (the same bytes on every attempt)</h2>
          <pre>{JSON.stringify(eventResource(stored), null, 2)}</pre>
        </section>
      </div>
    );
    return page(c, { title: event.type, section: "events", script: LIVE_SCRIPT }, body);
  });

  /** `POST /v1/events/:id/resend`, from the Resend button: a new delivery to every endpoint listening now. */
  app.post("/events/:id/resend", (c) =>
    act(c, `/events/${c.req.param("id")}`, async () => {
      await call(c, resendEvent, { params: { id: c.req.param("id") } });
      return "Resent: a new delivery goes to every endpoint listening for this event.";
    }),
  );
}

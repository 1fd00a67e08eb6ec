/** @jsxImportSource hono/jsx */
import { ApiError } from "../../../domain/errors.js";
import { EVENT_TYPES } from "../../../domain/events.js";
import { parseOrThrow } from "../../../domain/validation.js";
import { insertEndpoint, toEndpointResource, type WebhookEndpointResource } from "../../../services/webhook-endpoints.js";
import { webhookEndpointInput } from "../../routes/webhook-endpoints.js";
import { companyOf, type DashboardApp, type DashboardContext, type DashboardKit } from "../kit.js";
import { Csrf, PageHead, Time } from "../views/parts.js";

/** The endpoints list, each with Delete and Reveal secret; the secret of `revealed` is shown. */
function EndpointsList({ endpoints, csrf, revealed }: { endpoints: readonly WebhookEndpointResource[]; csrf: string; revealed: string | undefined }) {
  if (endpoints.length === 0) return <p class="empty">No webhook endpoints yet. Add one below, or start paysim with <code>--forward-to</code>.</p>;
  return (
    <div class="table-scroll">
      <table class="stack">
        <thead>
          <tr><th scope="col">URL</th><th scope="col">Events</th><th scope="col">Signing secret</th><th scope="col" class="hide-narrow">Created</th><th scope="col"><span class="muted">Actions</span></th></tr>
        </thead>
        <tbody>
          {endpoints.map((endpoint) => (
            <tr id={`endpoint-${endpoint.id}`}>
              <td><span class="mono">{endpoint.url}</span><div class="muted mono">{endpoint.id}</div></td>
              <td data-label="Events">{endpoint.enabled_events.includes("*") ? "all events" : endpoint.enabled_events.join(", ")}</td>
              <td data-label="Secret">
                {endpoint.id === revealed ? (
                  <span class="secret"><code>{endpoint.secret}</code></span>
                ) : (
                  <form class="inline" method="post" action={`/dashboard/webhook_endpoints/${endpoint.id}/reveal`}>
                    <Csrf token={csrf} />
                    <button class="btn small" type="submit" aria-label={`Reveal the signing secret of ${endpoint.url}`}>Reveal</button>
                  </form>
                )}
              </td>
              <td class="time hide-narrow"><Time iso={endpoint.created_at} /></td>
              <td>
                <form class="inline" method="post" action={`/dashboard/webhook_endpoints/${endpoint.id}/delete`}>
                  <Csrf token={csrf} />
                  <button class="btn small danger" type="submit" aria-label={`Delete the endpoint ${endpoint.url}`}>Delete</button>
                </form>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The add form: a URL and the event types it listens to (none ticked: every type). */
function AddEndpoint({ csrf }: { csrf: string }) {
  return (
    <form method="post" action="/dashboard/webhook_endpoints">
      <Csrf token={csrf} />
      <div class="field">
        <label for="endpoint-url">URL <span class="hint">http:// or https://, where your app receives webhooks</span></label>
        <input id="endpoint-url" type="url" name="url" required placeholder="http://127.0.0.1:3000/webhooks" />
      </div>
      <fieldset>
        <legend>Event types <span class="hint">none ticked: every type</span></legend>
        <div class="checks">
          {EVENT_TYPES.map((type) => (
            <label><input type="checkbox" name="enabled_events" value={type} /> {type}</label>
          ))}
        </div>
      </fieldset>
      <button class="btn primary" type="submit">Add endpoint</button>
    </form>
  );
}

/** Webhook endpoints: list, add (URL and event types), delete, reveal a signing secret. */
export function webhookEndpointsPage(app: DashboardApp, { deps, page, act, apiRequest, form: readForm }: DashboardKit) {
  const { store, clock, ids, runIdempotently, outbox } = deps;

  const find = (companyId: string, id: string) => {
    const row = store.webhookEndpoints.byId(companyId, id);
    if (!row) throw new ApiError("not_found", `No such webhook endpoint: "${id}".`);
    return row;
  };

  function show(c: DashboardContext, revealed?: string) {
    const company = companyOf(c);
    const csrf = c.get("session").csrf;
    const endpoints = store.webhookEndpoints.live(company.id).map(toEndpointResource);
    const body = (
      <>
        <PageHead title="Webhook endpoints" lead="Where this company's events are delivered, signed with each endpoint's secret." />
        <section class="card flush" aria-label="Endpoints">
          <EndpointsList endpoints={endpoints} csrf={csrf} revealed={revealed} />
        </section>
        <section class="card">
          <h2>Add an endpoint</h2>
          <AddEndpoint csrf={csrf} />
        </section>
      </>
    );
    return page(c, { title: "Webhook endpoints", section: "webhook_endpoints" }, body);
  }

  app.get("/webhook_endpoints", (c) => show(c));

  /** As `POST /v1/webhook_endpoints`. */
  app.post("/webhook_endpoints", async (c) => {
    const form = await readForm(c);
    return act(c, "/dashboard/webhook_endpoints", async () => {
      const company = companyOf(c);
      const events = form.all("enabled_events");
      const input = { url: form.get("url") ?? "", ...(events.length > 0 ? { enabled_events: events } : {}) };
      const answer = await runIdempotently(apiRequest(c, "/v1/webhook_endpoints", input), () => {
        const parsed = parseOrThrow(webhookEndpointInput, input);
        const row = insertEndpoint(store, ids, { companyId: company.id, url: parsed.url, enabledEvents: parsed.enabled_events ?? ["*"], createdAt: clock.nowIso() });
        return { status: 201, resource: toEndpointResource(row) };
      });
      const created = JSON.parse(answer.text) as WebhookEndpointResource;
      return `Added ${created.url}. Use Reveal to copy its signing secret.`;
    });
  });

  /** As `DELETE /v1/webhook_endpoints/:id`: its pending deliveries stop. */
  app.post("/webhook_endpoints/:id/delete", (c) =>
    act(c, "/dashboard/webhook_endpoints", () => {
      const company = companyOf(c);
      const row = find(company.id, c.req.param("id"));
      outbox.removeEndpoint(company.id, row.id);
      return `Deleted ${row.url}; its pending deliveries stop.`;
    }),
  );

  /** The list with one secret shown: a POST, so a secret never sits in a URL or the history. */
  app.post("/webhook_endpoints/:id/reveal", (c) => show(c, find(companyOf(c).id, c.req.param("id")).id));
}

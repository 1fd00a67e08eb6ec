/** @jsxImportSource hono/jsx */
import { DELAY_MAX_MS, type Chaos } from "../../domain/chaos.js";
import { EVENT_TYPES } from "../../domain/events.js";
import type { WebhookEndpointResource } from "./service.js";
import { createWebhookEndpoint, deleteWebhookEndpoint } from "./operations.js";
import {
  baseOf,
  companyOf,
  formNumber,
  given,
  linkTo,
  type DashboardApp,
  type DashboardContext,
  type DashboardKit,
  type Form,
} from "../../server/dashboard/kit.js";
import { Csrf, NumberField, PageHead, PostButton, Time } from "../../server/dashboard/views/parts.js";

/** An endpoint's chaos in a few words, or "none". */
export function chaosSummary(chaos: Chaos | null): string {
  if (!chaos) return "none";
  const percent = (p: number) => `${Math.round(p * 1000) / 10}%`;
  const [min, max] = chaos.delay_ms;
  const parts = [
    chaos.duplicate > 0 ? `duplicate ${percent(chaos.duplicate)}` : undefined,
    chaos.reorder > 0 ? `reorder ${percent(chaos.reorder)}` : undefined,
    max > 0 ? `delay ${min === max ? min : `${min}–${max}`} ms` : undefined,
  ].filter((part) => part !== undefined);
  return `${parts.length === 0 ? "no effect" : parts.join(" · ")} · seed ${chaos.seed}`;
}

/**
 * The `chaos` object of `POST /v1/webhook_endpoints` from the form's chaos fields; absent when
 * every one is empty. A delay with one bound given is that bound (min 0 when only max is given).
 */
function chaosInput(form: Form): Record<string, unknown> | undefined {
  const min = formNumber(form, "chaos_delay_min");
  const max = formNumber(form, "chaos_delay_max");
  const chaos = given({
    duplicate: formNumber(form, "chaos_duplicate"),
    reorder: formNumber(form, "chaos_reorder"),
    delay_ms: min === undefined && max === undefined ? undefined : [min ?? 0, max ?? min],
    seed: formNumber(form, "chaos_seed"),
  });
  return Object.keys(chaos).length === 0 ? undefined : chaos;
}

/** The endpoints list, each with Delete and Reveal secret (under the session's `base`); the secret of `revealed` is shown. */
function EndpointsList({
  endpoints,
  csrf,
  base,
  revealed,
}: {
  endpoints: readonly WebhookEndpointResource[];
  csrf: string;
  base: string;
  revealed: string | undefined;
}) {
  if (endpoints.length === 0)
    return (
      <p class="empty">
        No webhook endpoints yet. Add one below, or start paysim with <code>--forward-to</code>.
      </p>
    );
  return (
    <div class="table-scroll">
      <table class="stack">
        <thead>
          <tr>
            <th scope="col">URL</th>
            <th scope="col">Events</th>
            <th scope="col">Chaos</th>
            <th scope="col">Signing secret</th>
            <th scope="col" class="hide-narrow">
              Created
            </th>
            <th scope="col">
              <span class="muted">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {endpoints.map((endpoint) => (
            <tr id={`endpoint-${endpoint.id}`}>
              <td>
                <span class="mono">{endpoint.url}</span>
                <div class="muted mono">{endpoint.id}</div>
              </td>
              <td data-label="Events">{endpoint.enabled_events.includes("*") ? "all events" : endpoint.enabled_events.join(", ")}</td>
              <td data-label="Chaos">{endpoint.chaos ? chaosSummary(endpoint.chaos) : <span class="muted">none</span>}</td>
              <td data-label="Secret">
                {endpoint.id === revealed ? (
                  <span class="secret">
                    <code>{endpoint.secret}</code>
                  </span>
                ) : (
                  <PostButton
                    action={`${base}/webhook_endpoints/${endpoint.id}/reveal`}
                    csrf={csrf}
                    label="Reveal"
                    spoken={`Reveal the signing secret of ${endpoint.url}`}
                    tone="small"
                  />
                )}
              </td>
              <td class="time hide-narrow">
                <Time iso={endpoint.created_at} />
              </td>
              <td>
                <PostButton
                  action={`${base}/webhook_endpoints/${endpoint.id}/delete`}
                  csrf={csrf}
                  label="Delete"
                  spoken={`Delete the endpoint ${endpoint.url}`}
                  tone="small danger"
                />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The add form: a URL, the event types it listens to (none ticked: every type), and optional chaos. */
function AddEndpoint({ csrf, action }: { csrf: string; action: string }) {
  return (
    <form method="post" action={action}>
      <Csrf token={csrf} />
      <div class="field">
        <label for="endpoint-url">
          URL <span class="hint">http:// or https://, where your app receives webhooks</span>
        </label>
        <input id="endpoint-url" type="url" name="url" required placeholder="http://127.0.0.1:3000/webhooks" />
      </div>
      <fieldset>
        <legend>
          Event types <span class="hint">none ticked: every type</span>
        </legend>
        <div class="checks">
          {EVENT_TYPES.map((type) => (
            <label>
              <input type="checkbox" name="enabled_events" value={type} /> {type}
            </label>
          ))}
        </div>
      </fieldset>
      <fieldset>
        <legend>
          Chaos <span class="hint">optional; all empty: none. Makes deliveries arrive twice, late or out of order</span>
        </legend>
        <div class="fields">
          <NumberField
            id="endpoint-chaos-duplicate"
            name="chaos_duplicate"
            label="Duplicate"
            hint="chaos.duplicate, 0–1: chance a delivered event is sent once more"
            min={0}
            max={1}
            step="any"
          />
          <NumberField
            id="endpoint-chaos-reorder"
            name="chaos_reorder"
            label="Reorder"
            hint="chaos.reorder, 0–1: chance a first attempt waits for the next event"
            min={0}
            max={1}
            step="any"
          />
          <NumberField
            id="endpoint-chaos-delay-min"
            name="chaos_delay_min"
            label="Delay min (ms)"
            hint={`chaos.delay_ms[0], 0–${DELAY_MAX_MS}`}
            min={0}
            max={DELAY_MAX_MS}
          />
          <NumberField
            id="endpoint-chaos-delay-max"
            name="chaos_delay_max"
            label="Delay max (ms)"
            hint={`chaos.delay_ms[1], 0–${DELAY_MAX_MS}: extra wait before each first attempt`}
            min={0}
            max={DELAY_MAX_MS}
          />
          <NumberField id="endpoint-chaos-seed" name="chaos_seed" label="Seed" hint="chaos.seed, an integer (default 0): same seed, same chaos" />
        </div>
      </fieldset>
      <button class="btn primary" type="submit">
        Add endpoint
      </button>
    </form>
  );
}

/** Webhook endpoints: list, add (URL, event types, chaos), delete, reveal a signing secret. */
export function webhookEndpointsPage(app: DashboardApp, { deps, page, act, call, form: readForm }: DashboardKit) {
  const { webhookEndpoints } = deps;
  const find = (c: DashboardContext) => webhookEndpoints.get(companyOf(c).id, c.req.param("id") ?? "");

  function show(c: DashboardContext, revealed?: string) {
    const company = companyOf(c);
    const csrf = c.get("session").csrf;
    const endpoints = webhookEndpoints.list(company.id);
    const body = (
      <>
        <PageHead title="Webhook endpoints" lead="Where this company's events are delivered, signed with each endpoint's secret." />
        <section class="card flush" aria-label="Endpoints">
          <EndpointsList endpoints={endpoints} csrf={csrf} base={baseOf(c)} revealed={revealed} />
        </section>
        <section class="card">
          <h2>Add an endpoint</h2>
          <AddEndpoint csrf={csrf} action={linkTo(c, "/webhook_endpoints")} />
        </section>
      </>
    );
    return page(c, { title: "Webhook endpoints", section: "webhook_endpoints" }, body);
  }

  app.get("/webhook_endpoints", (c) => show(c));

  /** `POST /v1/webhook_endpoints`, from the form. */
  app.post("/webhook_endpoints", async (c) => {
    const form = await readForm(c);
    return act(c, "/webhook_endpoints", async () => {
      const events = form.all("enabled_events");
      const body = given({ url: form.get("url") ?? "", enabled_events: events.length > 0 ? events : undefined, chaos: chaosInput(form) });
      const created = await call(c, createWebhookEndpoint, { body });
      const chaos = created.chaos ? ` with chaos (${chaosSummary(created.chaos)})` : "";
      return `Added ${created.url}${chaos}. Use Reveal to copy its signing secret.`;
    });
  });

  /** `DELETE /v1/webhook_endpoints/:id`, from the Delete button: its pending deliveries stop. */
  app.post("/webhook_endpoints/:id/delete", (c) =>
    act(c, "/webhook_endpoints", async () => {
      const row = find(c);
      await call(c, deleteWebhookEndpoint, { params: { id: row.id } });
      return `Deleted ${row.url}; its pending deliveries stop.`;
    }),
  );

  /** The list with one secret shown: a POST, so a secret never sits in a URL or the history. */
  app.post("/webhook_endpoints/:id/reveal", (c) => show(c, find(c).id));
}

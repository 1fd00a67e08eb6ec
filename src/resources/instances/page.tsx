/** @jsxImportSource hono/jsx */
import type { InstanceResource } from "./service.js";
import { baseOf, companyOf, type DashboardApp, type DashboardContext, type DashboardKit } from "../../server/dashboard/kit.js";
import { PageHead, PostButton, Time } from "../../server/dashboard/views/parts.js";

/** The instance whose fresh sign-in link is shown, and the link. */
interface Opened {
  id: string;
  link: string;
}

/** The company's running instances, each with Open its dashboard and Stop (under the session's `base`); `opened`'s link shown in its row. */
function InstancesList({ instances, csrf, base, opened }: { instances: readonly InstanceResource[]; csrf: string; base: string; opened: Opened | undefined }) {
  if (instances.length === 0) {
    return (
      <p class="empty">
        No instances running. Start one with <code>POST /v1/sandbox/instances</code> or <code>paysim instances create</code>.
      </p>
    );
  }
  return (
    <div class="table-scroll">
      <table class="stack">
        <thead>
          <tr>
            <th scope="col">Instance</th>
            <th scope="col">Key</th>
            <th scope="col">Signing secret</th>
            <th scope="col" class="hide-narrow">
              Started
            </th>
            <th scope="col">
              <span class="muted">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {instances.map((instance) => (
            <tr id={`instance-${instance.id}`}>
              <td>
                <span class="mono">{instance.url}</span>
                <div class="muted mono">{instance.id}</div>
              </td>
              <td data-label="Key" class="mono">
                {instance.secret_key}
              </td>
              <td data-label="Signing secret" class="mono">
                {instance.signing_secret ?? <span class="muted">—</span>}
              </td>
              <td class="time hide-narrow">
                <Time iso={instance.created_at} />
              </td>
              <td>
                {instance.id === opened?.id ? (
                  <a class="btn small primary" href={opened.link}>
                    Open its dashboard
                  </a>
                ) : (
                  <PostButton
                    action={`${base}/instances/${instance.id}/dashboard`}
                    csrf={csrf}
                    label="Open its dashboard"
                    spoken={`Open the dashboard of ${instance.url}`}
                    tone="small"
                  />
                )}{" "}
                <PostButton
                  action={`${base}/instances/${instance.id}/stop`}
                  csrf={csrf}
                  label="Stop"
                  spoken={`Stop the instance at ${instance.url}`}
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

/** Instances: the whole paysims this company started (`/v1/sandbox/instances`), each with a way into its own dashboard. */
export function instancesPage(app: DashboardApp, { deps, page, act }: DashboardKit) {
  const { instances } = deps;

  function show(c: DashboardContext, opened?: Opened) {
    const lead = opened
      ? "The link below signs this browser in to that instance's own dashboard, once, within 10 minutes."
      : "Whole paysims this company started, each on its own port with its own data; they stop when this paysim stops.";
    const body = (
      <>
        <PageHead title="Instances" lead={lead} />
        <section class="card flush" aria-label="Instances">
          <InstancesList instances={instances.list(companyOf(c).id)} csrf={c.get("session").csrf} base={baseOf(c)} opened={opened} />
        </section>
      </>
    );
    return page(c, { title: "Instances", section: "instances" }, body);
  }

  app.get("/instances", (c) => show(c));

  /** A fresh one-time link to the instance's own dashboard: a POST, since it issues one. */
  app.post("/instances/:id/dashboard", (c) => {
    const id = c.req.param("id");
    return show(c, { id, link: instances.dashboardLoginUrl(companyOf(c).id, id) });
  });

  /** As `DELETE /v1/sandbox/instances/:id`. */
  app.post("/instances/:id/stop", (c) =>
    act(c, "/instances", async () => {
      const stopped = await instances.stop(companyOf(c).id, c.req.param("id"));
      return `Stopped ${stopped.id}: its port is closed and its data is gone.`;
    }),
  );
}

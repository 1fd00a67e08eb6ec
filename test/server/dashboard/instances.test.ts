// The dashboard's Instances page: the company's instances, each with a fresh one-time link into its own dashboard.
import { beforeAll, describe, expect, it } from "vitest";
import { suiteScope } from "../../helpers/disposables.js";
import { freshKey, type TestPaysim } from "../../helpers/paysim.js";
import { ACME_KEY, csrfOf, DashboardClient, GLOBEX_KEY, signedIn, textOf, useTwoCompanies } from "./helpers.js";

const thisFile = suiteScope();
let paysim: TestPaysim;
let client: DashboardClient;

beforeAll(async () => {
  paysim = await useTwoCompanies(thisFile);
  client = await signedIn(paysim);
});

const start = async (key: string, body: Record<string, unknown> = {}) =>
  (await paysim.api("POST", "/v1/sandbox/instances", { body, idempotencyKey: freshKey(), key })).body as { id: string; url: string; secret_key: string };

/** The row of one instance in a page. */
const rowOf = (html: string, id: string) => /<tr id="instance-[^"]+">[\s\S]*?<\/tr>/g.exec(html.slice(html.indexOf(`<tr id="instance-${id}"`)))![0];

describe("the Instances page", () => {
  it("lists only the signed-in company's instances, each with its URL, key and an Open its dashboard button that posts", async () => {
    const mine = await start(ACME_KEY, { secret_key: "sk_test_dash_worker" });
    const theirs = await start(GLOBEX_KEY);
    const page = await client.get("/instances");
    expect(page.status).toBe(200);
    expect(page.html).toContain(`<a href="${client.base}/instances" aria-current="page">Instances</a>`);
    const row = rowOf(page.html, mine.id);
    expect(textOf(row)).toContain(`${mine.url} ${mine.id} sk_test_dash_worker`);
    expect(row).toContain(`<form class="inline" method="post" action="${client.base}/instances/${mine.id}/dashboard">`);
    expect(page.html).not.toContain(theirs.id);
    expect(page.html).not.toContain(theirs.url);
  });

  it("issues a fresh one-time link on each press, which signs a browser in to that instance's own dashboard", async () => {
    const instance = await start(ACME_KEY, { name: "Worker dashboard" });
    const csrf = csrfOf((await client.get("/instances")).html);
    const opened = await client.post(`/instances/${instance.id}/dashboard`, { csrf });
    expect(opened.status).toBe(200);
    const link = new RegExp(`<a class="btn small primary" href="(${instance.url}/dashboard/login/[0-9A-Za-z]+)">Open its dashboard</a>`).exec(
      rowOf(opened.html, instance.id),
    )![1]!;
    const again = await client.post(`/instances/${instance.id}/dashboard`, { csrf });
    expect(again.html).not.toContain(link);

    // The link is the instance's own: its page signs in there, as its company.
    const landing = await fetch(link);
    expect(landing.status).toBe(200);
    const signIn = await fetch(link, {
      method: "POST",
      body: new URLSearchParams({ csrf: csrfOf(await landing.text()) }),
      redirect: "manual",
      headers: { cookie: landing.headers.get("set-cookie")?.split(";")[0] ?? "" },
    });
    expect(signIn.status).toBe(303);
    const events = await fetch(new URL(signIn.headers.get("location")!, instance.url), {
      headers: { cookie: signIn.headers.get("set-cookie")!.split(";")[0]! },
    });
    expect(textOf(await events.text())).toContain("Worker dashboard");
  });

  it("refuses a link for another company's instance or a forged post, and stops an instance as the API's DELETE does", async () => {
    const theirs = await start(GLOBEX_KEY);
    const csrf = csrfOf((await client.get("/instances")).html);
    expect((await client.post(`/instances/${theirs.id}/dashboard`, { csrf })).status).toBe(404);
    expect((await client.post(`/instances/${theirs.id}/stop`, { csrf })).status).toBe(404);
    const mine = await start(ACME_KEY);
    expect((await client.post(`/instances/${mine.id}/dashboard`, { csrf: "forged" })).status).toBe(403);
    const stopped = await client.submit(`/instances/${mine.id}/stop`);
    expect(textOf(stopped.html)).toContain(`Stopped ${mine.id}: its port is closed and its data is gone.`);
    expect((await paysim.api("GET", "/v1/sandbox/instances", { key: ACME_KEY })).body.data.map((i: { id: string }) => i.id)).not.toContain(mine.id);
    await expect(fetch(`${mine.url}/health`)).rejects.toThrow();
  });
});

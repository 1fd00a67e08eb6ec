import { describe, expect, it } from "vitest";
import { usePaysimApp } from "../../helpers/disposables.js";
import { csrfOf, DashboardClient, signedIn, textOf } from "./helpers.js";

const KEY = "sk_test_dashboard_signin_0001";

describe("dashboard sign-in", () => {
  it("sends a browser without a session to the sign-in form, which labels its key field and carries a CSRF token", async () => {
    const paysim = await usePaysimApp({ secretKey: KEY });
    const client = new DashboardClient(paysim);
    const someone = await signedIn(paysim);
    const paths = [
      "/dashboard",
      "/dashboard/",
      "/dashboard/events",
      "/dashboard/payouts/po_x",
      `${someone.base}/events`,
      `${someone.base}`,
      "/dashboard/login/x/y",
    ];
    for (const path of paths) {
      const answer = await client.get(path);
      expect(answer.status).toBe(303);
      expect(answer.headers.get("location")).toBe("/dashboard/login");
    }
    const form = await client.get("/dashboard/login");
    expect(form.status).toBe(200);
    expect(form.html).toContain('<label for="secret-key">Secret key</label>');
    expect(csrfOf(form.html).length).toBeGreaterThan(20);
    expect(form.headers.get("content-security-policy")).toMatch(/default-src 'none'/);
  });

  it("signs in by key: an HttpOnly SameSite=Strict cookie holding a random id, never the key, for the session's own random path only", async () => {
    const paysim = await usePaysimApp({ secretKey: KEY });
    const client = new DashboardClient(paysim);
    const answer = await client.signInByKey(KEY);
    expect(answer.status).toBe(303);
    const base = /^\/dashboard\/([0-9A-Za-z]{22})\/events$/.exec(answer.headers.get("location")!);
    expect(base).not.toBeNull();
    const cookie = answer.headers.get("set-cookie")!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(cookie).toContain(`Path=/dashboard/${base![1]};`);
    expect(cookie).not.toContain(base![1] + "=");
    expect(cookie).not.toContain(KEY);
    expect(cookie).not.toContain(encodeURIComponent(KEY));
    const events = await client.get("/events");
    expect(events.status).toBe(200);
    expect(textOf(events.html)).toContain("Signed in to Sandbox Merchant");
    expect(events.html).not.toContain(KEY);
  });

  it("says so when the key is wrong, and starts no session", async () => {
    const paysim = await usePaysimApp({ secretKey: KEY });
    const client = new DashboardClient(paysim);
    for (const key of ["sk_test_not_this_one", "whatever", ""]) {
      const answer = await client.signInByKey(key);
      expect(answer.status).toBe(400);
      expect(textOf(answer.html)).toContain("That is not a secret key of this paysim.");
      expect(answer.headers.get("set-cookie")).toBeNull();
    }
    expect(client.base).toBeUndefined();
  });

  it("refuses the key form without its token or from another origin", async () => {
    const paysim = await usePaysimApp({ secretKey: KEY });
    const client = new DashboardClient(paysim);
    const token = csrfOf((await client.get("/dashboard/login")).html);
    const refused = [
      await client.post("/dashboard/login", { key: KEY }),
      await client.post("/dashboard/login", { key: KEY, csrf: "forged" }),
      await client.post("/dashboard/login", { key: KEY, csrf: token }, { origin: "http://evil.example" }),
      await client.post("/dashboard/login", { key: KEY, csrf: token }, { "sec-fetch-site": "cross-site" }),
    ];
    for (const answer of refused) {
      expect(answer.status).toBe(403);
      expect(textOf(answer.html)).toContain("This form could not be verified");
      expect(answer.headers.get("set-cookie")).toBeNull();
    }
  });

  it("opening the one-time link (twice, as a link preview and a prefetch would) spends nothing: it shows a Sign in button", async () => {
    const paysim = await usePaysimApp({ secretKey: KEY });
    const link = paysim.dashboardLoginUrl();
    expect(link).toMatch(new RegExp(`^${paysim.url}/dashboard/login/[0-9A-Za-z]{24}$`));
    expect(link).not.toContain(KEY);
    const preview = new DashboardClient(paysim);
    for (const _ of [1, 2]) {
      const page = await preview.get(link);
      expect(page.status).toBe(200);
      expect(page.headers.get("set-cookie")).toBeNull();
      expect(page.headers.get("cache-control")).toBe("no-store");
      expect(textOf(page.html)).toContain("This one-time link signs this browser in to Sandbox Merchant");
      expect(page.html).toContain(`<form class="card attempts" method="post" action="/dashboard/login/${link.split("/").pop()}">`);
    }
    const answer = await new DashboardClient(paysim).openLink(link);
    expect(answer.status).toBe(303);
  });

  it("its button signs in once: a second press, from any browser, is refused", async () => {
    const paysim = await usePaysimApp({ secretKey: KEY });
    const link = paysim.dashboardLoginUrl();
    const [first, second] = [new DashboardClient(paysim), new DashboardClient(paysim)];
    const [firstPage, secondPage] = [await first.get(link), await second.get(link)];
    const answer = await first.post(link, { csrf: csrfOf(firstPage.html) });
    expect(answer.status).toBe(303);
    expect(answer.headers.get("location")).toMatch(/^\/dashboard\/[0-9A-Za-z]{22}\/events$/);
    expect((await first.get("/events")).status).toBe(200);

    for (const client of [second, first]) {
      const again = await client.post(link, { csrf: csrfOf(secondPage.html) });
      expect(again.status).toBe(403);
      expect(textOf(again.html)).toContain("This sign-in link no longer works");
      expect(again.headers.get("set-cookie")).toBeNull();
    }
    expect(second.base).toBeUndefined();
    // Opened after it was used, the link says so at once rather than showing a button.
    const opened = await second.get(link);
    expect(opened.status).toBe(403);
    expect(textOf(opened.html)).toContain("This sign-in link no longer works");
  });

  it("its button is refused without the page's token, with another link's, or from another origin, and the link stays usable", async () => {
    const paysim = await usePaysimApp({ secretKey: KEY });
    const link = paysim.dashboardLoginUrl();
    const client = new DashboardClient(paysim);
    const token = csrfOf((await client.get(link)).html);
    const otherLinksToken = csrfOf((await client.get(paysim.dashboardLoginUrl())).html);
    const keyFormToken = csrfOf((await client.get("/dashboard/login")).html);
    const refused = [
      await client.post(link, {}),
      await client.post(link, { csrf: otherLinksToken }),
      await client.post(link, { csrf: keyFormToken }),
      await client.post(link, { csrf: token }, { origin: "http://localhost:3000" }),
      await client.post(link, { csrf: token }, { "sec-fetch-site": "same-site" }),
    ];
    for (const answer of refused) {
      expect(answer.status).toBe(403);
      expect(textOf(answer.html)).toContain("This form could not be verified");
      expect(answer.headers.get("set-cookie")).toBeNull();
    }
    expect((await client.post(link, { csrf: token }, { origin: paysim.url, "sec-fetch-site": "same-origin" })).status).toBe(303);
  });

  it("a link expires 10 minutes of real time after it was made, whatever the virtual clock does; opening it does not extend that", async () => {
    let realMs = Date.UTC(2030, 0, 1);
    const paysim = await usePaysimApp({ secretKey: KEY, realNow: () => realMs });
    const early = paysim.dashboardLoginUrl();
    const late = paysim.dashboardLoginUrl();
    const lateClient = new DashboardClient(paysim);
    const lateToken = csrfOf((await lateClient.get(late)).html);
    await paysim.advanceClock(86_400); // a virtual day does not expire a link
    realMs += 10 * 60_000 - 1;
    expect((await new DashboardClient(paysim).openLink(early)).status).toBe(303);
    realMs += 1;
    expect((await new DashboardClient(paysim).get(late)).status).toBe(403);
    const pressed = await lateClient.post(late, { csrf: lateToken });
    expect(pressed.status).toBe(403);
    expect(textOf(pressed.html)).toContain("This sign-in link no longer works");
  });

  it("an unknown token is refused like a used one", async () => {
    const paysim = await usePaysimApp({ secretKey: KEY });
    const client = new DashboardClient(paysim);
    expect((await client.get("/dashboard/login/notAToken")).status).toBe(403);
    const token = csrfOf((await client.get(paysim.dashboardLoginUrl())).html);
    expect((await client.post("/dashboard/login/notAToken", { csrf: token })).status).toBe(403);
  });

  it("a session opens its own random path only: not another session's, a wrong one, or the old /dashboard/… pages", async () => {
    const paysim = await usePaysimApp({ secretKey: KEY });
    const [client, other] = [await signedIn(paysim), await signedIn(paysim)];
    expect(client.base).not.toBe(other.base);
    const wrong = `/dashboard/${"A".repeat(22)}`;
    for (const path of [`${other.base}/events`, `${wrong}/events`, "/dashboard/events", `${client.base}x/events`, `${client.base!.slice(0, -1)}/events`]) {
      const answer = await client.get(path);
      expect(answer.status, path).toBe(303);
      expect(answer.headers.get("location")).toBe("/dashboard/login");
    }
    // Both cookies sent at once (a browser holding both sessions) open each its own path.
    const both = `${client.cookie}; ${other.cookie}`;
    expect((await client.get(`${client.base}/events`, { cookie: both })).status).toBe(200);
    expect((await client.get(`${other.base}/events`, { cookie: both })).status).toBe(200);
    // A cookie of the same name that another server of the host set first does not hide ours.
    const tossed = `${client.cookie!.split("=")[0]}=junk; ${client.cookie}`;
    expect((await client.get("/events", { cookie: tossed })).status).toBe(200);
  });

  it("no answer to a request without the session names its path: another app of the host cannot learn it from paysim", async () => {
    const paysim = await usePaysimApp({ secretKey: KEY });
    const client = await signedIn(paysim);
    const scope = client.base!.split("/")[2]!;
    const stranger = new DashboardClient(paysim);
    const link = paysim.dashboardLoginUrl();
    for (const path of [
      "/dashboard",
      "/dashboard/login",
      link,
      "/dashboard/events",
      `${client.base}/events`,
      `${client.base}/events/stream`,
      "/dashboard/login/notAToken",
    ]) {
      const answer = await stranger.get(path);
      expect(`${[...answer.headers].join("\n")}\n${answer.html}`, path).not.toContain(scope);
    }
  });

  it("sign-out ends the session: the cookie of its path is cleared and the old id no longer opens a page", async () => {
    const paysim = await usePaysimApp({ secretKey: KEY });
    const client = await signedIn(paysim);
    const [oldCookie, oldBase] = [client.cookie!, client.base!];
    const csrf = csrfOf((await client.get("/events")).html);
    const answer = await client.post("/logout", { csrf });
    expect(answer.status).toBe(303);
    expect(answer.headers.get("location")).toBe("/dashboard/login?signed_out");
    expect(answer.headers.get("set-cookie")).toMatch(new RegExp(`Max-Age=0; Path=${oldBase};`));
    const stale = await client.get(`${oldBase}/events`, { cookie: oldCookie });
    expect(stale.status).toBe(303);
    expect(textOf((await client.get("/dashboard/login?signed_out")).html)).toContain("You are signed out.");
  });

  it("sign-out without the CSRF token is refused and the session stays", async () => {
    const paysim = await usePaysimApp({ secretKey: KEY });
    const client = await signedIn(paysim);
    expect((await client.post("/logout", {})).status).toBe(403);
    expect((await client.get("/events")).status).toBe(200);
  });

  it("two paysims on one host keep their sessions apart: the cookie is named after the port", async () => {
    const a = await usePaysimApp({ secretKey: KEY });
    const client = await signedIn(a);
    expect(client.cookie).toMatch(new RegExp(`^paysim_dashboard_${new URL(a.url).port}=`));
  });
});

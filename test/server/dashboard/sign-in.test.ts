import { describe, expect, it } from "vitest";
import { usePaysimApp } from "../../helpers/disposables.js";
import { csrfOf, DashboardClient, signedIn, textOf } from "./helpers.js";

const KEY = "sk_test_dashboard_signin_0001";

describe("dashboard sign-in", () => {
  it("sends a browser without a session to the sign-in form, which labels its key field and carries a CSRF token", async () => {
    const paysim = await usePaysimApp({ secretKey: KEY });
    const client = new DashboardClient(paysim);
    for (const path of ["/dashboard", "/dashboard/events", "/dashboard/payouts/po_x"]) {
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

  it("signs in by key: an HttpOnly SameSite=Strict cookie holding a random id, never the key, then the company's events", async () => {
    const paysim = await usePaysimApp({ secretKey: KEY });
    const client = new DashboardClient(paysim);
    const answer = await client.signInByKey(KEY);
    expect(answer.status).toBe(303);
    expect(answer.headers.get("location")).toBe("/dashboard/events");
    const cookie = answer.headers.get("set-cookie")!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(cookie).toMatch(/Path=\/dashboard/);
    expect(cookie).not.toContain(KEY);
    expect(cookie).not.toContain(encodeURIComponent(KEY));
    const events = await client.get("/dashboard/events");
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
    expect((await client.get("/dashboard/events")).status).toBe(303);
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

  it("signs in by the one-time link once; the same link again is refused", async () => {
    const paysim = await usePaysimApp({ secretKey: KEY });
    const link = paysim.dashboardLoginUrl();
    expect(link).toMatch(new RegExp(`^${paysim.url}/dashboard/login/[0-9A-Za-z]{24}$`));
    expect(link).not.toContain(KEY);
    const first = new DashboardClient(paysim);
    const answer = await first.get(link);
    expect(answer.status).toBe(303);
    expect(answer.headers.get("location")).toBe("/dashboard/events");
    expect((await first.get("/dashboard/events")).status).toBe(200);

    const second = new DashboardClient(paysim);
    const again = await second.get(link);
    expect(again.status).toBe(403);
    expect(textOf(again.html)).toContain("This sign-in link no longer works");
    expect(again.headers.get("set-cookie")).toBeNull();
    expect((await second.get("/dashboard/events")).status).toBe(303);
  });

  it("a link expires 10 minutes of real time after it was made, whatever the virtual clock does", async () => {
    let realMs = Date.UTC(2030, 0, 1);
    const paysim = await usePaysimApp({ secretKey: KEY, realNow: () => realMs });
    const early = paysim.dashboardLoginUrl();
    const late = paysim.dashboardLoginUrl();
    await paysim.advanceClock(86_400); // a virtual day does not expire a link
    realMs += 10 * 60_000 - 1;
    expect((await new DashboardClient(paysim).get(early)).status).toBe(303);
    realMs += 1;
    expect((await new DashboardClient(paysim).get(late)).status).toBe(403);
  });

  it("an unknown token is refused like a used one", async () => {
    const paysim = await usePaysimApp({ secretKey: KEY });
    const answer = await new DashboardClient(paysim).get("/dashboard/login/notAToken");
    expect(answer.status).toBe(403);
  });

  it("sign-out ends the session: the cookie is cleared and the old id no longer opens a page", async () => {
    const paysim = await usePaysimApp({ secretKey: KEY });
    const client = await signedIn(paysim);
    const oldCookie = client.cookie!;
    const csrf = csrfOf((await client.get("/dashboard/events")).html);
    const answer = await client.post("/dashboard/logout", { csrf });
    expect(answer.status).toBe(303);
    expect(answer.headers.get("location")).toBe("/dashboard/login?signed_out");
    expect(answer.headers.get("set-cookie")).toMatch(/Max-Age=0/);
    const stale = await client.get("/dashboard/events", { cookie: oldCookie });
    expect(stale.status).toBe(303);
    expect(textOf((await client.get("/dashboard/login?signed_out")).html)).toContain("You are signed out.");
  });

  it("sign-out without the CSRF token is refused and the session stays", async () => {
    const paysim = await usePaysimApp({ secretKey: KEY });
    const client = await signedIn(paysim);
    expect((await client.post("/dashboard/logout", {})).status).toBe(403);
    expect((await client.get("/dashboard/events")).status).toBe(200);
  });

  it("two paysims on one host keep their sessions apart: the cookie is named after the port", async () => {
    const a = await usePaysimApp({ secretKey: KEY });
    const client = await signedIn(a);
    expect(client.cookie).toMatch(new RegExp(`^paysim_dashboard_${new URL(a.url).port}=`));
  });
});

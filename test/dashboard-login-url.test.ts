import { describe, expect, it } from "vitest";
import { pressDashboardLink } from "./helpers/dashboard-link.js";
import { useStartedPaysim } from "./helpers/disposables.js";

const start = () => useStartedPaysim({ secretKey: "sk_test_login_url_0001" });

describe("startPaysim().dashboardLoginUrl()", () => {
  it("makes a fresh link each call, each signing a browser in once as the default company", async () => {
    const paysim = await start();
    const [first, second] = [paysim.dashboardLoginUrl(), paysim.dashboardLoginUrl()];
    expect(first).not.toBe(second);
    expect(first.startsWith(`${paysim.url}/dashboard/login/`)).toBe(true);
    const signIn = await pressDashboardLink(first);
    expect(signIn.status).toBe(303);
    const cookie = signIn.headers.get("set-cookie")!.split(";")[0]!;
    const events = await fetch(paysim.url + signIn.headers.get("location")!, { headers: { cookie }, redirect: "manual" });
    expect(events.status).toBe(200);
    expect(await events.text()).toContain("Sandbox Merchant");
    expect((await pressDashboardLink(first)).status).toBe(403);
    expect((await pressDashboardLink(second)).status).toBe(303);
  });
});

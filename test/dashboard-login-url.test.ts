import { describe, expect, it } from "vitest";
import { startPaysim, type RunningPaysim } from "../src/index.js";
import { defer } from "./helpers/disposables.js";

async function start(): Promise<RunningPaysim> {
  const paysim = await startPaysim({ secretKey: "sk_test_login_url_0001" });
  defer(() => paysim.close());
  return paysim;
}

describe("startPaysim().dashboardLoginUrl()", () => {
  it("makes a fresh link each call, each signing a browser in once as the default company", async () => {
    const paysim = await start();
    const [first, second] = [paysim.dashboardLoginUrl(), paysim.dashboardLoginUrl()];
    expect(first).not.toBe(second);
    expect(first.startsWith(`${paysim.url}/dashboard/login/`)).toBe(true);
    const signIn = await fetch(first, { redirect: "manual" });
    expect(signIn.status).toBe(303);
    const cookie = signIn.headers.get("set-cookie")!.split(";")[0]!;
    const events = await fetch(`${paysim.url}/dashboard/events`, { headers: { cookie }, redirect: "manual" });
    expect(events.status).toBe(200);
    expect(await events.text()).toContain("Sandbox Merchant");
    expect((await fetch(first, { redirect: "manual" })).status).toBe(403);
    expect((await fetch(second, { redirect: "manual" })).status).toBe(303);
  });
});

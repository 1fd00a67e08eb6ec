import { describe, expect, it } from "vitest";
import type { RequestLogged } from "../../../src/bus.js";
import { loggedPath } from "../../../src/server/middleware/request-log.js";
import { usePaysimApp } from "../../helpers/disposables.js";
import { signedIn } from "../dashboard/helpers.js";

describe("the path a request's log line shows", () => {
  it.each([
    ["/v1/payment_intents", "/v1/payment_intents"],
    ["/v1/payment_intents/4242424242424242", "/v1/payment_intents/************4242"],
    ["/dashboard", "/dashboard"],
    ["/dashboard/login", "/dashboard/login"],
    ["/dashboard/login/Ab12Cd34Ef56Gh78Ij90Kl12", "/dashboard/login/…"],
    ["/dashboard/lfIUpGkZPCFTcR26UwAc4k/events", "/dashboard/…/events"],
    ["/dashboard/lfIUpGkZPCFTcR26UwAc4k/events/evt_1", "/dashboard/…/events/evt_1"],
    ["/dashboard//lfIUpGkZPCFTcR26UwAc4k/events", "/dashboard//…/events"],
    ["/dashboard///lfIUpGkZPCFTcR26UwAc4k", "/dashboard///…"],
    ["//dashboard/lfIUpGkZPCFTcR26UwAc4k/events", "//dashboard/…/events"],
    ["/DASHBOARD/lfIUpGkZPCFTcR26UwAc4k/events", "/DASHBOARD/…/events"],
    ["/dashboard/login//Ab12Cd34Ef56Gh78Ij90Kl12", "/dashboard/login//…"],
    ["/dashboard//login/Ab12Cd34Ef56Gh78Ij90Kl12", "/dashboard//login/…"],
    ["/checkout/pi_1", "/checkout/pi_1"],
  ])("%s is logged as %s", (path, logged) => {
    expect(loggedPath(path)).toBe(logged);
  });

  it("never carries a dashboard sign-in token or session base onto the bus", async () => {
    const paysim = await usePaysimApp();
    const lines: RequestLogged[] = [];
    paysim.bus.on("request.logged", (line) => lines.push(line));
    const link = new URL(paysim.dashboardLoginUrl());
    await paysim.app.request(link.pathname, { headers: { Host: link.host } });
    expect(lines.map((line) => line.path)).toEqual(["/dashboard/login/…"]);
  });

  it("never carries a session's base onto the bus, however the page's path is spelt", async () => {
    const paysim = await usePaysimApp();
    const client = await signedIn(paysim);
    const scope = client.base!.split("/")[2]!;
    const lines: RequestLogged[] = [];
    paysim.bus.on("request.logged", (line) => lines.push(line));
    for (const path of [`/dashboard//${scope}/events`, `/dashboard///${scope}/events`, `//dashboard/${scope}/events`, `/dashboard/${scope}//events`])
      await client.get(paysim.url + path);
    expect(lines).toHaveLength(4);
    for (const line of lines) expect(line.path).not.toContain(scope);
  });
});

import { beforeAll, describe, expect, it } from "vitest";
import type { RequestLogged } from "../../src/bus.js";
import { suiteScope, usePaysimApp } from "../helpers/disposables.js";
import type { TestPaysim } from "../helpers/paysim.js";

/**
 * The checkout pages and the dashboard, loaded on their first request and mounted as one route
 * each (`onDemand` in server/app.ts): what a request elsewhere pays for them, and that their
 * requests are answered and logged as before.
 */
const thisFile = suiteScope();
let paysim: TestPaysim;
beforeAll(async () => {
  paysim = await usePaysimApp({}, thisFile);
});

describe("the app's router", () => {
  it("is Hono's RegExpRouter: no mounted route makes it fall back to the slower TrieRouter", async () => {
    expect((await paysim.app.request("/health")).status).toBe(200);
    const router = paysim.app.router as unknown as { activeRouter: { name: string } };
    expect(router.activeRouter.name).toBe("RegExpRouter");
  });

  it("holds none of the dashboard's or the checkout's own routes, only one catch-all each", () => {
    const paths = paysim.app.routes.map((route) => route.path);
    expect(paths.filter((path) => path.startsWith("/dashboard"))).toEqual(["/dashboard", "/dashboard/*"]);
    expect(paths.filter((path) => path.startsWith("/checkout"))).toEqual(["/checkout", "/checkout/*"]);
  });
});

describe("a page loaded on demand", () => {
  it("answers with the request's own id, logged with it, its own not-found page included", async () => {
    const entries: RequestLogged[] = [];
    const listener = (entry: RequestLogged) => entries.push(entry);
    paysim.bus.on("request.logged", listener);
    try {
      const signIn = await paysim.app.request("/dashboard/login");
      expect(signIn.status).toBe(200);
      expect(await signIn.text()).toContain("<form");
      const requestId = signIn.headers.get("Request-Id");
      expect(requestId).toMatch(/^req_/);
      expect(entries.map((entry) => entry.requestId)).toContain(requestId);

      const missing = await paysim.app.request("/checkout/pi_doesnotexist000000000000");
      expect(missing.status).toBe(404);
      expect(missing.headers.get("Request-Id")).toMatch(/^req_/);
    } finally {
      paysim.bus.off("request.logged", listener);
    }
  });
});

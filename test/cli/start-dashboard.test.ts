import { describe, expect, it } from "vitest";
import { pressDashboardLink } from "../helpers/dashboard-link.js";
import { usePaysimCli, useTempDir } from "../helpers/disposables.js";

describe("paysim start and the dashboard", () => {
  it("prints a one-time dashboard link for the default company that signs in once; the key never appears in it", async () => {
    const { cli, url, key } = await usePaysimCli(["--no-ui", "--db", ":memory:"], { cwd: useTempDir("paysim-cli-dashboard-") });
    const [, link] = await cli.waitFor(/^ {2}dashboard (http:\/\/\S+)/m);
    expect(link).toMatch(new RegExp(`^${url}/dashboard/login/[0-9A-Za-z]{24}$`));
    expect(link).not.toContain(key.slice("sk_test_".length));
    // Opening it (a link preview, a curl) only shows the Sign in button; pressing it signs in.
    expect((await fetch(link!, { redirect: "manual" })).status).toBe(200);
    const signIn = await pressDashboardLink(link!);
    expect(signIn.status).toBe(303);
    expect(signIn.headers.get("set-cookie")).toMatch(/HttpOnly; SameSite=Strict/);
    expect((await pressDashboardLink(link!)).status).toBe(403);
  });
});

describe("paysim start's log of dashboard requests", () => {
  it("never prints a session's base, however the slash after /dashboard is percent-encoded", async () => {
    const { cli, url } = await usePaysimCli(["--no-ui", "--db", ":memory:"], { cwd: useTempDir("paysim-cli-dashboard-") });
    const [, link] = await cli.waitFor(/^ {2}dashboard (http:\/\/\S+)/m);
    const signIn = await pressDashboardLink(link!);
    const [, scope] = /^\/dashboard\/([^/]+)\/events$/.exec(signIn.headers.get("location")!)!;
    const paths = [`/dashboard%2F${scope}/events`, `/dashboard%2f${scope}/events`, `/dashboard%252F${scope}/events`, `/%64ashboard%5C${scope}/events`];
    for (const path of paths) expect((await fetch(url + path, { redirect: "manual" })).status).toBe(404);
    await cli.waitFor(new RegExp(`(?: 404 [^]*){${paths.length}}`));
    const logged = cli
      .stdout()
      .split("\n")
      .filter((line) => line.includes(" 404 "));
    expect(logged).toHaveLength(paths.length);
    for (const line of logged) expect(line).toMatch(/^GET \/\S*…\/events 404 /);
    expect(cli.stdout()).not.toContain(scope);
  });
});

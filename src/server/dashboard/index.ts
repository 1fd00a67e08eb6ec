import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { ApiError } from "../../domain/errors.js";
import { pageHeaders } from "../page-security.js";
import type { AppDeps } from "../env.js";
import { csrfMatches } from "./auth.js";
import { createKit, linkTo, readForm, requestIdOf, type DashboardContext, type DashboardEnv } from "./kit.js";
import { clockPage } from "./pages/clock.js";
import { coveragePage } from "./pages/coverage.js";
import { reportPage } from "./pages/report.js";
import type { CoverageCatalogue } from "../../services/coverage.js";
import type { ServedModule } from "../operations/served-module.js";
import { SIGN_IN_PATH } from "./nav.js";
import { cookieValues, crossSite, signInPages } from "./pages/sign-in.js";

/** Dashboard forms are a few short fields: anything much larger is not one. */
const MAX_FORM_BYTES = 16 * 1024;

/**
 * The dashboard (docs/dashboard.md), mounted at /dashboard: server-rendered pages that
 * work with plain links and forms, kept live by a small nonce'd script reading
 * server-sent events. Sign-in lives at /dashboard/login; every other page lives
 * under its session's random base, /dashboard/<scope>/…, the only path its
 * cookie is sent to (docs/dashboard.md, "The session"). Every POST needs the
 * session's CSRF token and a same-origin (or no) Origin / Sec-Fetch-Site.
 * Actions call the same services as the API routes; objects are read only
 * within the session's company, so another company's id is a 404. `coverageCatalogue` is what the
 * Coverage and Report pages' reports cover: the app's, built from the operations it mounts. Each of
 * `modules` (the resources, each in its folder) mounts its pages, when it has some.
 */
export async function dashboardRoutes(deps: AppDeps, coverageCatalogue: () => CoverageCatalogue, modules: readonly ServedModule[]) {
  const resourcePages = await Promise.all(modules.map((module) => module.page?.()));
  const auth = deps.dashboardAuth;
  const kit = createKit(deps, auth);
  const app = new Hono<DashboardEnv>();
  // Browsers share cookies across the ports of one host: the port in the name keeps two paysims apart.
  const cookieName = () => `paysim_dashboard_${new URL(deps.baseUrl()).port || "80"}`;

  const refuseForged = (c: DashboardContext) =>
    kit.message(
      c,
      "This form could not be verified",
      "Dashboard forms are only accepted from this dashboard's own pages. Reload the page and try again; nothing was changed.",
      403,
    );

  app.use("*", async (c, next) => {
    c.header("Request-Id", requestIdOf(c));
    await next();
  });
  app.use("*", pageHeaders({ script: true }));
  app.use(
    "*",
    bodyLimit({
      maxSize: MAX_FORM_BYTES,
      onError: (c) => kit.message(c as DashboardContext, "Form too large", "The form sent was larger than any dashboard form. Go back and try again.", 413),
    }),
  );

  const { signOut } = signInPages(app, kit, cookieName, refuseForged);

  // The pages of a session, under its base /dashboard/<scope>: the session must be the one of
  // that scope (any other path, a wrong or old one, is the sign-in form); a POST also needs its
  // CSRF token, from this origin.
  const pages = new Hono<DashboardEnv>();
  pages.use("*", async (c, next) => {
    const session = auth.session(c.req.param("scope") ?? "", cookieValues(c, cookieName()));
    const company = session && deps.store.companies.byId(session.companyId);
    if (!session || !company) {
      if (c.req.method === "POST") return refuseForged(c);
      return c.redirect(SIGN_IN_PATH, 303);
    }
    c.set("session", session);
    c.set("dashboardCompany", company);
    if (c.req.method === "POST" && (crossSite(c) || !csrfMatches(session, (await readForm(c)).get("csrf")))) return refuseForged(c);
    await next();
  });

  pages.get("/", (c) => c.redirect(linkTo(c, "/events"), 303));
  pages.post("/logout", (c) => signOut(c));
  clockPage(pages, kit);
  reportPage(pages, kit, coverageCatalogue);
  coveragePage(pages, kit, coverageCatalogue);
  for (const mount of resourcePages) mount?.(pages, kit);
  pages.all("*", (c) => kit.message(c, "Page not found", "There is no such dashboard page, or it belongs to another company.", 404));

  app.route("/:scope", pages);
  app.all("*", (c) => c.redirect(SIGN_IN_PATH, 303));

  app.onError((error, c) => {
    if (error instanceof ApiError && error.code === "not_found") {
      return kit.message(c, "Not found", `${error.message} It does not exist, or it belongs to another company.`, 404);
    }
    deps.reportError(requestIdOf(c), error);
    return kit.message(c, "Something went wrong", "paysim could not show this page; the paysim log has the details under this request.", 500);
  });

  return app;
}

/** @jsxImportSource hono/jsx */
import { deleteCookie, setCookie } from "hono/cookie";
import { hashSecretKey, isSecretKey } from "../../../domain/secret-keys.js";
import type { Company } from "../../../store/repos/companies.js";
import { createFormTokens, isCrossSitePost, styleNonce } from "../../checkout-security.js";
import { readForm, sendPage, type DashboardApp, type DashboardContext, type DashboardKit } from "../kit.js";
import { SignInPage } from "../views/SignInPage.js";

/** What the sign-in form's token is an HMAC of: there is no session to hold one yet. */
const SIGN_IN_FORM = "dashboard-sign-in";

/** The session cookie's options: only this server's dashboard pages get it, never a script, never another site. */
export const SESSION_COOKIE_OPTIONS = { path: "/dashboard", httpOnly: true, sameSite: "Strict" } as const;

/** Whether a form post comes from another site, judged by the headers browsers add. */
export function crossSite(c: DashboardContext): boolean {
  return isCrossSitePost({ origin: c.req.header("origin"), secFetchSite: c.req.header("sec-fetch-site") }, new URL(c.req.url).origin);
}

/**
 * Sign-in (by key, or by the one-time link `paysim start` prints) and sign-out.
 * `refuse` answers the 403 page of a forged form.
 */
export function signInPages(app: DashboardApp, kit: DashboardKit, cookieName: () => string, refuse: (c: DashboardContext) => Promise<Response>) {
  const { deps, auth } = kit;
  const formTokens = createFormTokens();

  const companyOfKey = (key: string): Company | undefined => {
    if (!isSecretKey(key)) return undefined;
    const companyId = deps.store.apiKeys.companyIdFor(hashSecretKey(key));
    return companyId === undefined ? undefined : deps.store.companies.byId(companyId);
  };

  const form = (c: DashboardContext, options: { error?: string; status?: string } = {}, code: 200 | 400 = 200) =>
    sendPage(c, <SignInPage nonce={styleNonce(c)} token={formTokens.issue(SIGN_IN_FORM)} {...options} />, code);

  /** A new session for `companyId`, its id in the cookie, and on to the events. */
  function signIn(c: DashboardContext, companyId: string) {
    const session = auth.startSession(companyId);
    setCookie(c, cookieName(), session.id, SESSION_COOKIE_OPTIONS);
    return c.redirect("/dashboard/events", 303);
  }

  app.get("/login", (c) => form(c, c.req.query("signed_out") === undefined ? {} : { status: "You are signed out." }));

  app.post("/login", async (c) => {
    const fields = await readForm(c);
    if (crossSite(c) || !formTokens.verify(SIGN_IN_FORM, fields.get("csrf"))) return refuse(c);
    const company = companyOfKey((fields.get("key") ?? "").trim());
    if (!company) return form(c, { error: "That is not a secret key of this paysim. Copy the sk_test_… key that paysim start printed." }, 400);
    return signIn(c, company.id);
  });

  app.get("/login/:token", (c) => {
    const companyId = auth.redeemLoginToken(c.req.param("token"));
    if (companyId === undefined) {
      return kit.message(c, "This sign-in link no longer works", "Each link signs in once and expires 10 minutes after paysim printed it. Sign in with the secret key instead, or restart paysim for a new link.", 403);
    }
    return signIn(c, companyId);
  });

  return {
    /** Ends the session (the CSRF check has passed) and forgets the cookie. */
    signOut(c: DashboardContext) {
      auth.endSession(c.get("session").id);
      deleteCookie(c, cookieName(), SESSION_COOKIE_OPTIONS);
      return c.redirect("/dashboard/login?signed_out", 303);
    },
  };
}

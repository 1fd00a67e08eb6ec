/** @jsxImportSource hono/jsx */
import { deleteCookie, setCookie } from "hono/cookie";
import { hashSecretKey, isSecretKey } from "../../../domain/secret-keys.js";
import type { Company } from "../../../resources/companies/store.js";
import { createFormTokens, isCrossSitePost, styleNonce } from "../../page-security.js";
import { sessionBase, type DashboardSession } from "../auth.js";
import { SIGN_IN_PATH } from "../nav.js";
import { readForm, sendPage, type DashboardApp, type DashboardContext, type DashboardKit } from "../kit.js";
import { LinkSignInPage, SignInPage } from "../views/SignInPage.js";

/** What the key form's token is an HMAC of: there is no session to hold one yet. */
const SIGN_IN_FORM = "dashboard-sign-in";
/** What a one-time link's form token is an HMAC of: that link's token, so it posts to no other. */
const linkForm = (token: string) => `dashboard-link:${token}`;

/**
 * The session cookie's options: only this session's own path gets it (browsers send a host's
 * cookies to every port of it, whatever SameSite says; a path nobody else knows keeps it from
 * other servers of the host), never a script, never another site.
 */
const cookieOptions = (session: DashboardSession) => ({ path: sessionBase(session), httpOnly: true, sameSite: "Strict" }) as const;

/** Whether a form post comes from another site, judged by the headers browsers add. */
export function crossSite(c: DashboardContext): boolean {
  return isCrossSitePost({ origin: c.req.header("origin"), secFetchSite: c.req.header("sec-fetch-site") }, new URL(c.req.url).origin);
}

/**
 * Every value of the cookie `name` in this request: a browser holding sessions under several
 * paths sends each of them, and a cookie of the same name set by another server of the host
 * must not hide ours.
 */
export function cookieValues(c: DashboardContext, name: string): string[] {
  const values: string[] = [];
  for (const pair of (c.req.header("cookie") ?? "").split(";")) {
    const at = pair.indexOf("=");
    if (at !== -1 && pair.slice(0, at).trim() === name) values.push(pair.slice(at + 1).trim());
  }
  return values;
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

  const linkSpent = (c: DashboardContext) =>
    kit.message(
      c,
      "This sign-in link no longer works",
      "Each link signs in once and expires 10 minutes after paysim printed it. Sign in with the secret key instead, or restart paysim for a new link.",
      403,
    );

  /** A new session for `companyId`, its id in a cookie of its own path, and on to its events. */
  function signIn(c: DashboardContext, companyId: string) {
    const session = auth.startSession(companyId);
    setCookie(c, cookieName(), session.id, cookieOptions(session));
    return c.redirect(`${sessionBase(session)}/events`, 303);
  }

  app.get("/", (c) => c.redirect(SIGN_IN_PATH, 303));

  app.get("/login", (c) => form(c, c.req.query("signed_out") === undefined ? {} : { status: "You are signed out." }));

  app.post("/login", async (c) => {
    const fields = await readForm(c);
    if (crossSite(c) || !formTokens.verify(SIGN_IN_FORM, fields.get("csrf"))) return refuse(c);
    const company = companyOfKey((fields.get("key") ?? "").trim());
    if (!company) return form(c, { error: "That is not a secret key of this paysim. Copy the sk_test_… key that paysim start printed." }, 400);
    return signIn(c, company.id);
  });

  // Opening the link only asks: a GET (a link preview, a prefetch, curl) must not spend it.
  app.get("/login/:token", (c) => {
    const token = c.req.param("token");
    const companyId = auth.loginTokenCompany(token);
    const company = companyId === undefined ? undefined : deps.store.companies.byId(companyId);
    if (!company) return linkSpent(c);
    return sendPage(
      c,
      <LinkSignInPage nonce={styleNonce(c)} action={`${SIGN_IN_PATH}/${token}`} formToken={formTokens.issue(linkForm(token))} companyName={company.name} />,
    );
  });

  // Its Sign in button: the one request that spends the link.
  app.post("/login/:token", async (c) => {
    const token = c.req.param("token");
    if (crossSite(c) || !formTokens.verify(linkForm(token), (await readForm(c)).get("csrf"))) return refuse(c);
    const companyId = auth.redeemLoginToken(token);
    if (companyId === undefined || !deps.store.companies.byId(companyId)) return linkSpent(c);
    return signIn(c, companyId);
  });

  return {
    /** Ends the session (the CSRF check has passed) and forgets its cookie. */
    signOut(c: DashboardContext) {
      const session = c.get("session");
      auth.endSession(session.id);
      deleteCookie(c, cookieName(), cookieOptions(session));
      return c.redirect(`${SIGN_IN_PATH}?signed_out`, 303);
    },
  };
}

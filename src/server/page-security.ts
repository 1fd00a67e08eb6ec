/**
 * What keeps paysim's HTML pages safe to show, the hosted checkout's and the dashboard's: form
 * tokens against cross-site posts, an Origin / Sec-Fetch-Site check, and strict response headers.
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { MiddlewareHandler } from "hono";
import { NONCE, secureHeaders } from "hono/secure-headers";

/**
 * Form tokens for checkout forms: an HMAC over the intent id with a key that
 * lives only in this process's memory, so a page on another site cannot forge
 * one, and a restart simply asks the customer to reload the page.
 *
 * @example
 * const tokens = createFormTokens();
 * tokens.verify("pi_123", tokens.issue("pi_123")) // true
 */
export function createFormTokens(key: Buffer = randomBytes(32)) {
  const sign = (intentId: string) => createHmac("sha256", key).update(`checkout-form:${intentId}`).digest();
  return {
    issue: (intentId: string): string => sign(intentId).toString("base64url"),
    verify(intentId: string, token: unknown): boolean {
      if (typeof token !== "string") return false;
      const given = Buffer.from(token, "base64url");
      const expected = sign(intentId);
      return given.length === expected.length && timingSafeEqual(given, expected);
    },
  };
}

export type FormTokens = ReturnType<typeof createFormTokens>;

/** Sec-Fetch-Site values a form post of our own page (or one typed by the user) carries. */
const OWN_FETCH_SITES = new Set(["same-origin", "none"]);

/**
 * Whether a form post comes from somewhere other than this server's own pages,
 * judged by the headers browsers add (when present). `same-site` is refused
 * too: another app on localhost:<other port> is same-site but not ours.
 */
export function isCrossSitePost(headers: { origin?: string | undefined; secFetchSite?: string | undefined }, ownOrigin: string): boolean {
  if (headers.origin !== undefined && headers.origin !== ownOrigin) return true;
  if (headers.secFetchSite !== undefined && !OWN_FETCH_SITES.has(headers.secFetchSite)) return true;
  return false;
}

/**
 * Headers of every checkout response: a CSP that allows only the page's own
 * nonce'd <style> and posts to itself, no framing, no caching (the page shows a
 * payment's state and carries a form token), no referrer beyond this origin.
 * `same-origin` rather than `no-referrer`: with the latter, browsers send
 * `Origin: null` on form posts, which the cross-site check must refuse.
 */
export function checkoutHeaders(): MiddlewareHandler {
  return pageHeaders({ script: false });
}

/**
 * The checkout's headers for any of paysim's own pages; with `script`, the
 * page may also run its own nonce'd <script> and open event streams to this
 * origin (the dashboard's live updates), and nothing else.
 */
export function pageHeaders({ script }: { script: boolean }): MiddlewareHandler {
  const secure = secureHeaders({
    contentSecurityPolicy: {
      defaultSrc: ["'none'"],
      styleSrc: [NONCE],
      ...(script ? { scriptSrc: [NONCE], connectSrc: ["'self'"] } : {}),
      imgSrc: ["data:"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
      baseUri: ["'none'"],
    },
    xFrameOptions: "DENY",
    referrerPolicy: "same-origin",
    // Plain http on loopback: HSTS would be ignored at best.
    strictTransportSecurity: false,
    permissionsPolicy: { camera: [], microphone: [], geolocation: [], payment: [] },
  });
  return async function pageHeadersMiddleware(c, next) {
    await secure(c, async () => {
      await next();
      c.res.headers.set("Cache-Control", "no-store");
    });
  };
}

/** The CSP nonce of this response, for the page's one <style> element. */
export function styleNonce(c: { get(key: "secureHeadersNonce"): unknown }): string {
  const nonce = c.get("secureHeadersNonce");
  if (typeof nonce !== "string") throw new Error("pageHeaders() must run before a page renders");
  return nonce;
}

import { timingSafeEqual } from "node:crypto";
import type { Ids } from "../../domain/ids.js";
import { MS } from "../../domain/duration.js";

/** Letters and digits only: a token printed in the banner passes the log's masking unchanged. */
const TOKEN_ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
/** Session ids and CSRF tokens: 43 base62 characters, about 256 bits. */
const TOKEN_LENGTH = 43;
/**
 * A session's path segment (/dashboard/<scope>/…): 22 base62 characters, about 131 bits. It is
 * what keeps the cookie from other ports of the host (docs/dashboard.md, "The session"), so it
 * must be as unguessable as a token, and short enough to read in the address bar.
 */
const SCOPE_LENGTH = 22;
/**
 * Sign-in link tokens: 24 base62 characters, about 143 bits, plenty for a token that lives
 * ten minutes and works once; short enough that the banner's link fits an 80-column terminal.
 */
const LINK_TOKEN_LENGTH = 24;
/** docs/dashboard.md: the link `paysim start` prints is good for ten minutes of real time. */
export const LOGIN_LINK_LIFETIME_MS = 10 * MS.minute;

/** A signed-in browser: its company, and the CSRF token every one of its forms carries. Never a key. */
export interface DashboardSession {
  id: string;
  companyId: string;
  csrf: string;
  /**
   * The random path segment this session's pages live under, `/dashboard/<scope>/…`, and the
   * only path its cookie is sent to. Shown to no one but the browser that signed in.
   */
  scope: string;
  /** Aborted when the session ends: its live streams close at once. */
  ended: AbortSignal;
  /** One message for the next page shown (what the last action did, or why it was refused). */
  notice?: { kind: "ok" | "error"; text: string } | undefined;
}

/** Where a session's pages live: its own random path, the only one its cookie is sent to. */
export const sessionBase = (session: Pick<DashboardSession, "scope">): string => `/dashboard/${session.scope}`;

/**
 * The dashboard's sign-ins, in memory only: one-time login tokens and sessions.
 * A restart signs every browser out and voids every printed link. Tokens expire
 * by real time (`realNow`), not the virtual clock: `clock advance` must not
 * void a link just printed.
 *
 * @example
 * const auth = createDashboardAuth(ids, realTimeNow);
 * const token = auth.issueLoginToken(companyId);
 * auth.loginTokenCompany(token) // companyId, as often as asked: looking does not spend it
 * auth.redeemLoginToken(token) // companyId, then undefined forever after
 */
export function createDashboardAuth(ids: Ids, realNow: () => number) {
  const loginTokens = new Map<string, { companyId: string; expiresMs: number }>();
  const sessions = new Map<string, { session: DashboardSession; end: AbortController }>();
  const newToken = (length = TOKEN_LENGTH) => ids.randomString(TOKEN_ALPHABET, length);

  function dropExpiredTokens(now: number) {
    for (const [token, issued] of loginTokens) if (issued.expiresMs <= now) loginTokens.delete(token);
  }

  /**
   * The token's company while it is usable, without spending it: opening the link only
   * shows a Sign in button, so a link preview or prefetch leaves it working.
   */
  function loginTokenCompany(token: string): string | undefined {
    const issued = loginTokens.get(token);
    return issued && issued.expiresMs > realNow() ? issued.companyId : undefined;
  }

  return {
    /** A fresh one-time token for `companyId`, good for LOGIN_LINK_LIFETIME_MS. */
    issueLoginToken(companyId: string): string {
      const now = realNow();
      dropExpiredTokens(now);
      const token = newToken(LINK_TOKEN_LENGTH);
      loginTokens.set(token, { companyId, expiresMs: now + LOGIN_LINK_LIFETIME_MS });
      return token;
    },
    loginTokenCompany,
    /** The token's company, once: the token is gone afterwards. Undefined for an unknown, used or expired token. */
    redeemLoginToken(token: string): string | undefined {
      const companyId = loginTokenCompany(token);
      loginTokens.delete(token);
      return companyId;
    },
    startSession(companyId: string): DashboardSession {
      const end = new AbortController();
      const session: DashboardSession = { id: newToken(), companyId, csrf: newToken(), scope: newToken(SCOPE_LENGTH), ended: end.signal };
      sessions.set(session.id, { session, end });
      return session;
    },
    /** The live session whose id is one of `ids` (the cookies sent) and whose pages live under `scope`. */
    session(scope: string, ids: readonly string[]): DashboardSession | undefined {
      for (const id of ids) {
        const session = sessions.get(id)?.session;
        if (session?.scope === scope) return session;
      }
      return undefined;
    },
    /** Ends the session: its cookie opens nothing any more and its live streams close. */
    endSession(id: string) {
      const entry = sessions.get(id);
      sessions.delete(id);
      entry?.end.abort();
    },
  };
}

export type DashboardAuth = ReturnType<typeof createDashboardAuth>;

/** Whether a posted CSRF token is the session's, compared in constant time. */
export function csrfMatches(session: DashboardSession, given: string | undefined): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(session.csrf);
  return a.length === b.length && timingSafeEqual(a, b);
}

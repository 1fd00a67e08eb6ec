import { timingSafeEqual } from "node:crypto";
import type { Ids } from "../../domain/ids.js";
import { MS } from "../../domain/duration.js";

/** Letters and digits only: a token printed in the banner passes the log's masking unchanged. */
const TOKEN_ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
/** Session ids and CSRF tokens: 43 base62 characters, about 256 bits. */
const TOKEN_LENGTH = 43;
/**
 * Sign-in link tokens: 24 base62 characters, about 143 bits, plenty for a token that lives
 * ten minutes and works once; short enough that the banner's link fits an 80-column terminal.
 */
const LINK_TOKEN_LENGTH = 24;
/** SPEC §16: the link `paysim start` prints is good for ten minutes of real time. */
export const LOGIN_LINK_LIFETIME_MS = 10 * MS.minute;

/** A signed-in browser: its company, and the CSRF token every one of its forms carries. Never a key. */
export interface DashboardSession {
  id: string;
  companyId: string;
  csrf: string;
  /** One message for the next page shown (what the last action did, or why it was refused). */
  notice?: { kind: "ok" | "error"; text: string } | undefined;
}

/**
 * The dashboard's sign-ins, in memory only: one-time login tokens and sessions.
 * A restart signs every browser out and voids every printed link. Tokens expire
 * by real time (`realNow`), not the virtual clock: `clock advance` must not
 * void a link just printed.
 *
 * @example
 * const auth = createDashboardAuth(ids, realTimeNow);
 * const token = auth.issueLoginToken(companyId);
 * auth.redeemLoginToken(token) // companyId, then undefined forever after
 */
export function createDashboardAuth(ids: Ids, realNow: () => number) {
  const loginTokens = new Map<string, { companyId: string; expiresMs: number }>();
  const sessions = new Map<string, DashboardSession>();
  const newToken = (length = TOKEN_LENGTH) => ids.randomString(TOKEN_ALPHABET, length);

  function dropExpiredTokens(now: number) {
    for (const [token, issued] of loginTokens) if (issued.expiresMs <= now) loginTokens.delete(token);
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
    /** The token's company, once: the token is gone afterwards. Undefined for an unknown, used or expired token. */
    redeemLoginToken(token: string): string | undefined {
      const issued = loginTokens.get(token);
      loginTokens.delete(token);
      if (!issued || issued.expiresMs <= realNow()) return undefined;
      return issued.companyId;
    },
    startSession(companyId: string): DashboardSession {
      const session: DashboardSession = { id: newToken(), companyId, csrf: newToken() };
      sessions.set(session.id, session);
      return session;
    },
    session: (id: string | undefined): DashboardSession | undefined => (id === undefined ? undefined : sessions.get(id)),
    endSession: (id: string) => void sessions.delete(id),
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

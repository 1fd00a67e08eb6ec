import type { MiddlewareHandler } from "hono";
import { ApiError } from "../../domain/errors.js";
import { hashSecretKey } from "../../domain/secret-keys.js";
import type { Store } from "../../store/index.js";
import type { AppEnv } from "../env.js";

// The scheme name is case-insensitive (RFC 9110 §11.1); the key is not.
const BEARER = /^Bearer +(\S+) *$/i;

/** Finds the company of the `Authorization: Bearer` key; every /v1 call needs one. */
export function auth(store: Store): MiddlewareHandler<AppEnv> {
  return async function authMiddleware(c, next) {
    const header = c.req.header("authorization");
    if (header === undefined) {
      throw new ApiError("unauthorized", "No API key: send the header Authorization: Bearer <secret key> (paysim start prints the key).");
    }
    const match = BEARER.exec(header);
    if (!match) {
      throw new ApiError("unauthorized", "Malformed Authorization header: it must be Authorization: Bearer <secret key>.");
    }
    const companyId = store.apiKeys.companyIdFor(hashSecretKey(match[1]!));
    const company = companyId === undefined ? undefined : store.companies.byId(companyId);
    if (!company) {
      throw new ApiError("unauthorized", "Unknown API key: use a secret key printed by paysim start (sk_test_…).");
    }
    c.set("company", company);
    await next();
  };
}

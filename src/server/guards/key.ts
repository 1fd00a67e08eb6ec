import type { Context } from "hono";
import { ApiError } from "../../domain/errors.js";
import { hashSecretKey, isSecretKey } from "../../domain/secret-keys.js";
import type { Store } from "../../store/index.js";
import type { Company } from "../../resources/companies/store.js";
import type { AppEnv } from "../env.js";
import { header, headerLineCount } from "../node-adapter.js";
import { refuseRepeated } from "./repeated-header.js";

// The scheme name is case-insensitive (RFC 9110 §11.1); the key is not.
const BEARER = /^Bearer +(\S+) *$/i;

/**
 * The 401 of a key this paysim does not know says where its keys come from: a key of the paysim
 * that started an instance is the usual mistake on an instance, and the other way round.
 */
export function unknownKeyMessage(startedByAnother: boolean): string {
  return startedByAnother
    ? "Unknown API key: this paysim is an instance another paysim started (POST /v1/sandbox/instances); its key is the secret_key that call answered (paysim instances create prints it), not the key of the paysim that started it."
    : "Unknown API key: use this paysim's key (sk_test_…): the one paysim start printed or was given (--secret-key, PAYSIM_SECRET_KEY, the config file), or startPaysim()'s secretKey. An instance from POST /v1/sandbox/instances has its own key, the secret_key its creation answered.";
}

/**
 * Every /v1 call needs an `Authorization: Bearer` key: answers the request's
 * company, or throws the 401 for a missing, malformed or unknown key (or one sent twice).
 * `startedByAnother`: this paysim is an instance, whose keys come from its creation.
 *
 * @example
 * const companyOfRequest = keyCheck(store, false);
 * c.set("company", companyOfRequest(c));
 */
export function keyCheck(store: Store, startedByAnother: boolean): (c: Context<AppEnv>) => Company {
  const companyOfKey = keyGuard(store, unknownKeyMessage(startedByAnother));
  return function companyOfRequest(c) {
    refuseRepeated(headerLineCount(c, "authorization"), "Authorization", "unauthorized");
    return companyOfKey(header(c, "authorization"));
  };
}

/** Finds the company of an `Authorization` header; throws the 401 for a missing, malformed or unknown key. */
function keyGuard(store: Store, unknownKey: string): (authorization: string | undefined) => Company {
  // Keys and companies are fixed once paysim has started, so a known key's company is
  // looked up (and the key hashed) once. This map lives in memory only, like the keys paysim
  // printed; unknown keys are never cached: nobody can fill it.
  const known = new Map<string, Company>();
  const companyFor = (key: string): Company | undefined => {
    const cached = known.get(key);
    if (cached) return cached;
    const companyId = store.apiKeys.companyIdFor(hashSecretKey(key));
    const company = companyId === undefined ? undefined : store.companies.byId(companyId);
    if (company) known.set(key, company);
    return company;
  };
  return function companyOfKey(authorization) {
    if (authorization === undefined) {
      throw new ApiError("unauthorized", "No API key: send the header Authorization: Bearer <secret key> (paysim start prints the key).");
    }
    const match = BEARER.exec(authorization);
    if (!match) {
      throw new ApiError("unauthorized", "Malformed Authorization header: it must be Authorization: Bearer <secret key>.");
    }
    // A token that is no key by the documented rule (docs/api.md) cannot be one paysim knows: no lookup for it.
    const company = isSecretKey(match[1]!) ? companyFor(match[1]!) : undefined;
    if (!company) {
      throw new ApiError("unauthorized", unknownKey);
    }
    return company;
  };
}

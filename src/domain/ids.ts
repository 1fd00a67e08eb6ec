import { randomBytes } from "node:crypto";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const UPPER_ALNUM = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";

export type IdPrefix = "pi" | "po" | "evt" | "req" | "we" | "co" | "job" | "del";

/** `length` characters drawn uniformly from `alphabet` with a cryptographic source (rejection sampling, no modulo bias). */
export function randomString(alphabet: string, length: number): string {
  const limit = 256 - (256 % alphabet.length);
  let out = "";
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < limit) out += alphabet[byte % alphabet.length];
      if (out.length === length) break;
    }
  }
  return out;
}

/**
 * A new opaque identifier: prefix, underscore, 24 base62 characters.
 *
 * @example
 * newId("pi") // "pi_3xY9…"
 */
export function newId(prefix: IdPrefix): string {
  return `${prefix}_${randomString(BASE62, 24)}`;
}

/** A merchant-facing reference: `PAY-` or `POUT-` and 10 upper-case letters/digits. */
export function newReference(prefix: "PAY" | "POUT"): string {
  return `${prefix}-${randomString(UPPER_ALNUM, 10)}`;
}

/** A secret: the prefix then 32 base62 characters (about 190 bits). */
export function newSecret(prefix: "sk_test_" | "whsec_"): string {
  return `${prefix}${randomString(BASE62, 32)}`;
}

const ID_SHAPE = /^(pi|po|evt|req|we)_[0-9A-Za-z]{24}$/;

/** Whether `value` has the shape of an id with that prefix (cheap check before a lookup). */
export function looksLikeId(value: string, prefix: IdPrefix): boolean {
  return ID_SHAPE.test(value) && value.startsWith(`${prefix}_`);
}

import { randomBytes } from "node:crypto";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const UPPER_ALNUM = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";

export type IdPrefix = "pi" | "po" | "evt" | "req" | "we" | "co" | "job" | "del";

/**
 * Random bytes drawn from the cryptographic source 8 KiB at a time: one
 * randomBytes call per id cost several per cent of a request.
 */
const POOL_SIZE = 8192;
let pool = randomBytes(POOL_SIZE);
let poolOffset = 0;

function nextRandomByte(): number {
  if (poolOffset === POOL_SIZE) {
    pool = randomBytes(POOL_SIZE);
    poolOffset = 0;
  }
  return pool[poolOffset++]!;
}

/** `length` characters drawn uniformly from `alphabet` with a cryptographic source (rejection sampling, no modulo bias). */
export function randomString(alphabet: string, length: number): string {
  const limit = 256 - (256 % alphabet.length);
  let out = "";
  while (out.length < length) {
    const byte = nextRandomByte();
    if (byte < limit) out += alphabet[byte % alphabet.length];
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

import { randomBytes } from "node:crypto";
import { RESOURCE_ID_PREFIXES, type ResourceIdPrefix } from "./resources.js";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const UPPER_ALNUM = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";

/** The prefixes of ids that name no resource: a request's and a scheduled job's. */
const OWN_ID_PREFIXES = ["req", "job"] as const;

/** The prefixes of paysim's ids, each resource's (domain/resources.ts) and its own: an id is one of them, "_", then 24 base62 characters. */
export const ID_PREFIXES: readonly IdPrefix[] = [...RESOURCE_ID_PREFIXES, ...OWN_ID_PREFIXES];
export type IdPrefix = ResourceIdPrefix | (typeof OWN_ID_PREFIXES)[number];

/** `size` fresh random bytes a call. The default, `crypto.randomBytes`, is the cryptographic source. */
export type RandomSource = (size: number) => Uint8Array;

/** Characters of an ordered id that hold its time: 62^8 ms reach the year 8889 (later times wrap, still unique). */
const TIME_CHARS = 8;

/** 2020-01-01T00:00:00Z in unix seconds: a reference's 6 time characters (36^6 s) reach late 2088, then wrap. */
const REFERENCE_EPOCH_S = 1_577_836_800;

/**
 * Random bytes are drawn from the source 8 KiB at a time: one randomBytes call
 * per id cost several per cent of a request.
 */
const POOL_SIZE = 8192;

/** Every kind of identifier, reference and secret paysim makes, drawn from one random source. */
export interface Ids {
  /**
   * A new opaque identifier: prefix, underscore, 24 base62 characters.
   *
   * @example
   * ids.newId("pi") // "pi_3xY9…"
   */
  newId(prefix: IdPrefix): string;
  /**
   * An internal id that sorts by `nowMs` (paysim clock time): prefix, underscore,
   * 8 base62 characters of time, then 16 random ones (about 95 bits), 24 in all
   * like newId. Only for ids that docs/api.md does not require to be random (`del_`):
   * a B-tree keyed by them grows at its right edge, so an insert dirties the
   * page the previous one did, instead of a random page that COMMIT must write.
   *
   * @example
   * ids.newOrderedId("del", clock.now()) // "del_0WKq7s3b…": after every id of an earlier millisecond
   */
  newOrderedId(prefix: IdPrefix, nowMs: number): string;
  /**
   * A merchant-facing reference: `PAY-` or `POUT-` and 10 upper-case letters or
   * digits (docs/api.md asks no more of it): 6 of the creation second (paysim clock
   * time), then 4 random. The unique index on references then grows at its
   * right edge, like an ordered id's: fully random references put each insert on
   * a random page of that index, one more page for every creation's COMMIT to
   * write. Within one second 36^4 references can be drawn: `uniqueReference`
   * draws again on a clash.
   *
   * @example
   * ids.newReference("PAY", clock.now()) // "PAY-1A2B3CX9QZ"
   */
  newReference(prefix: "PAY" | "POUT", nowMs: number): string;
  /** A secret: the prefix then 32 base62 characters (about 190 bits). */
  newSecret(prefix: "sk_test_" | "whsec_"): string;
  /** `length` characters drawn uniformly from `alphabet` (rejection sampling, no modulo bias). */
  randomString(alphabet: string, length: number): string;
}

/**
 * Identifiers drawn from `random`, with a pool of their own: an instance made
 * with a replayable source (a seeded generator in a test) makes the same ids
 * again, and no other instance's draws change them.
 *
 * @example
 * const ids = createIds();
 * ids.newId("evt") // "evt_…"
 */
export function createIds(random: RandomSource = randomBytes): Ids {
  let pool = random(POOL_SIZE);
  let poolOffset = 0;

  function nextRandomByte(): number {
    if (poolOffset === pool.length) {
      pool = random(POOL_SIZE);
      poolOffset = 0;
    }
    return pool[poolOffset++]!;
  }

  function randomString(alphabet: string, length: number): string {
    const limit = 256 - (256 % alphabet.length);
    let out = "";
    while (out.length < length) {
      const byte = nextRandomByte();
      if (byte < limit) out += alphabet[byte % alphabet.length];
    }
    return out;
  }

  return {
    newId: (prefix) => `${prefix}_${randomString(BASE62, 24)}`,
    newOrderedId: (prefix, nowMs) => `${prefix}_${digits(nowMs, BASE62, TIME_CHARS)}${randomString(BASE62, 24 - TIME_CHARS)}`,
    newReference: (prefix, nowMs) => `${prefix}-${digits(nowMs / 1000 - REFERENCE_EPOCH_S, UPPER_ALNUM, 6)}${randomString(UPPER_ALNUM, 4)}`,
    newSecret: (prefix) => `${prefix}${randomString(BASE62, 32)}`,
    randomString,
  };
}

/**
 * `value` (floored) in exactly `count` digits of `alphabet`, most significant
 * first, wrapping past what they can hold. The alphabets here are in ASCII
 * order, so such strings sort, as SQLite compares text, as their values do.
 */
function digits(value: number, alphabet: string, count: number): string {
  const span = alphabet.length ** count;
  let rest = ((Math.floor(value) % span) + span) % span;
  let out = "";
  for (let i = 0; i < count; i++) {
    out = alphabet[rest % alphabet.length]! + out;
    rest = Math.floor(rest / alphabet.length);
  }
  return out;
}

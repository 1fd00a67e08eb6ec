import { sha256Hex } from "../shared/sha256.js";

/** Secret keys are kept only as this hash; lookups compare hashes, never clear keys. */
export function hashSecretKey(key: string): string {
  return sha256Hex(key);
}

/** A merchant secret key: `sk_test_` then 8–200 printable characters without spaces. */
export function isSecretKey(value: string): boolean {
  return /^sk_test_[\x21-\x7e]{8,200}$/.test(value);
}

/** A webhook signing secret: `whsec_` then 8–200 printable characters without spaces. */
export function isSigningSecret(value: string): boolean {
  return /^whsec_[\x21-\x7e]{8,200}$/.test(value);
}

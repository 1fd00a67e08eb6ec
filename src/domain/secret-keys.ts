import { sha256Hex } from "../shared/sha256.js";

/** Secret keys are kept only as this hash; lookups compare hashes, never clear keys. */
export function hashSecretKey(key: string): string {
  return sha256Hex(key);
}

// docs/api.md: the prefix, then 1–200 printable ASCII characters without spaces. One rule for
// flags, environment variables, config files, startPaysim() options and the API.
const SUFFIX = "[\\x21-\\x7e]{1,200}";
const SECRET_KEY = new RegExp(`^sk_test_${SUFFIX}$`);
const SIGNING_SECRET = new RegExp(`^whsec_${SUFFIX}$`);
/** The two shapes as patterns, for the OpenAPI document. */
export const SECRET_KEY_PATTERN = SECRET_KEY.source;
export const SIGNING_SECRET_PATTERN = SIGNING_SECRET.source;

/** What a secret key must look like, to follow the name of the field or flag in an error message. */
export const SECRET_KEY_RULE = "must be sk_test_ followed by 1 to 200 printable ASCII characters without spaces, e.g. sk_test_x";

/** What a signing secret must look like, to follow the name of the field or flag in an error message. */
export const SIGNING_SECRET_RULE = "must be whsec_ followed by 1 to 200 printable ASCII characters without spaces, e.g. whsec_acme";

/** A merchant secret key: `sk_test_` then 1–200 printable ASCII characters without spaces. */
export function isSecretKey(value: string): boolean {
  return SECRET_KEY.test(value);
}

/** A webhook signing secret: `whsec_` then 1–200 printable ASCII characters without spaces. */
export function isSigningSecret(value: string): boolean {
  return SIGNING_SECRET.test(value);
}

/**
 * Whether `value` is a credential by its own format: a secret key or a signing secret. Such a value
 * is no card data (docs/guarantees.md): where paysim takes or prints one as a credential, it is kept
 * exactly as given, never digit-masked.
 */
export function isCredential(value: string): boolean {
  return isSecretKey(value) || isSigningSecret(value);
}

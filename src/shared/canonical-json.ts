import { sha256Hex } from "./sha256.js";

/**
 * JSON with object keys sorted at every depth, so that two bodies that differ
 * only in key order have the same text.
 *
 * @example
 * canonicalJson({ b: 1, a: [2, { d: 3, c: 4 }] }) // '{"a":[2,{"c":4,"d":3}],"b":1}'
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.keys(value)
      .sort()
      .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** The idempotency fingerprint of a request body: SHA-256 of its canonical JSON. */
export function fingerprint(body: unknown): string {
  return sha256Hex(canonicalJson(body));
}

import * as crypto from "node:crypto";

/**
 * SHA-256 of a text (UTF-8), as 64 hex characters. Node's one-shot
 * `crypto.hash` (Node ≥ 20.12) costs less than half of a createHash object
 * for the short texts paysim hashes on every creation; older Nodes use that.
 *
 * @example
 * sha256Hex("abc") // "ba7816bf…f20015ad"
 */
export const sha256Hex: (text: string) => string =
  typeof crypto.hash === "function" ? (text) => crypto.hash("sha256", text, "hex") : (text) => crypto.createHash("sha256").update(text, "utf8").digest("hex");

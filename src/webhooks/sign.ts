import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * The `Service-Signature` header for `body` at unix time `t` (seconds):
 * `t=<t>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>`, keyed with the UTF-8
 * bytes of the whole secret string, `whsec_` included.
 */
export function signatureHeader(secret: string, body: string | Uint8Array, t: number): string {
  return `t=${t},v1=${hmacHex(secret, t, body)}`;
}

function hmacHex(secret: string, t: number | string, body: string | Uint8Array): string {
  return createHmac("sha256", Buffer.from(secret, "utf8")).update(`${t}.`).update(body).digest("hex");
}

/** Unix seconds of the real wall clock: a receiver checks `t` against its own clock, not paysim's virtual one. */
export function wallClockSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

/** The options of verifySignature. */
export interface VerifyOptions {
  /** How far `t` may be from now, in seconds. Default 300. */
  toleranceSeconds?: number;
  /** Unix seconds to compare `t` with (default: now). */
  now?: number;
}

/**
 * Checks a webhook delivery exactly as the service signs it: `true` when
 * `header` carries a `v1` signature of `rawBody` made with `secret` at a time
 * `t` within the tolerance; `false` otherwise. Never throws for a bad or
 * malformed signature. Compares in constant time.
 *
 * @example
 * app.post("/webhooks", express.raw({ type: "application/json" }), (req, res) => {
 *   if (!verifySignature(req.body, req.get("Service-Signature"), process.env.WEBHOOK_SECRET)) return res.sendStatus(400);
 *   const event = JSON.parse(req.body.toString("utf8"));
 *   res.sendStatus(200);
 * });
 */
export function verifySignature(
  rawBody: string | Uint8Array,
  header: string | null | undefined,
  secret: string,
  { toleranceSeconds = 300, now = wallClockSeconds() }: VerifyOptions = {},
): boolean {
  if (typeof header !== "string" || typeof secret !== "string" || secret.length === 0) return false;
  if (typeof rawBody !== "string" && !(rawBody instanceof Uint8Array)) return false;
  let t: string | undefined;
  const signatures: string[] = [];
  for (const part of header.split(",")) {
    const eq = part.indexOf("=");
    if (eq === -1) continue;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === "t") t = value;
    else if (key === "v1") signatures.push(value);
  }
  if (t === undefined || !/^\d{1,12}$/.test(t) || signatures.length === 0) return false;
  // Written as "not within" so that a NaN tolerance or now refuses instead of accepting any age.
  if (!(Math.abs(now - Number(t)) <= toleranceSeconds)) return false;
  const expected = Buffer.from(hmacHex(secret, t, rawBody), "hex");
  return signatures.some((signature) => {
    if (!/^[0-9a-f]{64}$/i.test(signature)) return false;
    return timingSafeEqual(expected, Buffer.from(signature, "hex"));
  });
}

import type { Context } from "hono";
import { bodyLimit } from "hono/body-limit";
import { ApiError } from "../../domain/errors.js";
import { maskRequestBody, type CredentialFields } from "../../domain/masking.js";
import { refuseIllFormedText } from "../../domain/validation.js";
import type { AppEnv } from "../env.js";
import { refuseRepeated } from "../guards/repeated-header.js";
import { header, headerLineCount, readNodeBody } from "../node-adapter.js";

export const MAX_BODY_BYTES = 64 * 1024;
const MAX_DEPTH = 32;

// One decoder serves every body: decode() without { stream: true } keeps no state between calls.
const UTF8 = new TextDecoder("utf-8", { fatal: true });

const tooLarge = () => new ApiError("payload_too_large", `The request body is larger than ${MAX_BODY_BYTES / 1024} KiB.`);

// The client went away mid-body: nobody is left to answer, and it is no bug of paysim's.
const cutShort = () => new ApiError("invalid_request", "The request body was cut short before its announced length.");

const limitWebBody = bodyLimit({
  maxSize: MAX_BODY_BYTES,
  onError: () => {
    throw tooLarge();
  },
});

/**
 * The request's JSON object body, checked and masked. Checks run in the docs/api.md order: size
 * (413), then content type, encoding, JSON syntax and shape, unpaired surrogates (400). No body at
 * all reads as `{}`. Only operations that take a body read it (operations/mount.ts), so an
 * unknown route or method is a 404/405 whatever its body. The `credentials` fields the
 * operation takes are kept as sent (maskRequestBody).
 */
export async function readJsonBody(c: Context<AppEnv>, credentials?: CredentialFields): Promise<Record<string, unknown>> {
  const bytes = await readLimited(c);
  if (bytes.byteLength === 0) return {};
  refuseRepeated(headerLineCount(c, "content-type"), "Content-Type", "invalid_request");
  return parseJsonObject(bytes, header(c, "content-type"), credentials);
}

/** The body's bytes, at most MAX_BODY_BYTES whatever Content-Length claimed. */
async function readLimited(c: Context<AppEnv>): Promise<Uint8Array> {
  if (Number(header(c, "content-length") ?? "0") > MAX_BODY_BYTES) throw tooLarge();
  const fromNode = readNodeBody(c, { maxBytes: MAX_BODY_BYTES, tooLarge, cutShort });
  if (fromNode) return fromNode;
  let bytes = new Uint8Array();
  try {
    await limitWebBody(c, async () => {
      bytes = new Uint8Array(await c.req.arrayBuffer());
    });
  } catch (error) {
    throw error instanceof ApiError ? error : cutShort();
  }
  return bytes;
}

function depthExceeds(value: unknown, limit: number): boolean {
  if (limit < 0) return true;
  if (Array.isArray(value)) return value.some((item) => depthExceeds(item, limit - 1));
  if (value !== null && typeof value === "object") return Object.values(value).some((item) => depthExceeds(item, limit - 1));
  return false;
}

/** A non-empty body as a JSON object, masked (docs/guarantees.md) before anything else sees it. */
function parseJsonObject(bytes: Uint8Array, contentType: string | undefined, credentials: CredentialFields | undefined): Record<string, unknown> {
  const type = (contentType ?? "").split(";")[0]!.trim().toLowerCase();
  if (type !== "application/json") {
    throw new ApiError("invalid_request", "The request body must be JSON, sent with Content-Type: application/json.");
  }
  let text: string;
  try {
    text = UTF8.decode(bytes);
  } catch {
    throw new ApiError("invalid_request", "The request body is not valid UTF-8.");
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ApiError("invalid_request", "The request body is not valid JSON: check quotes, commas and brackets.");
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw new ApiError("invalid_request", 'The request body must be a JSON object, e.g. {"amount": 1000}.');
  }
  if (depthExceeds(parsed, MAX_DEPTH)) {
    throw new ApiError("invalid_request", `The request body is nested more than ${MAX_DEPTH} levels deep.`);
  }
  // Only a JSON \u escape can make a lone surrogate: the fatal decoder refuses any bytes that encode one.
  if (text.includes("\\u")) refuseIllFormedText(parsed as Record<string, unknown>);
  return maskRequestBody(parsed as Record<string, unknown>, credentials);
}

import type { Context } from "hono";
import type { IncomingMessage } from "node:http";
import { ApiError } from "../../domain/errors.js";
import { isDroppedField, maskValue } from "../../domain/masking.js";
import { refuseIllFormedText } from "../../domain/validation.js";
import { incomingOf } from "../env.js";
import { header, headerLineCount } from "../header.js";

export const MAX_BODY_BYTES = 64 * 1024;
const MAX_DEPTH = 32;

// One decoder serves every body: decode() without { stream: true } keeps no state between calls.
const UTF8 = new TextDecoder("utf-8", { fatal: true });

const TOO_LARGE = () => new ApiError("payload_too_large", `The request body is larger than ${MAX_BODY_BYTES / 1024} KiB.`);

// The client went away mid-body: nobody is left to answer, and it is no bug of paysim's.
const CUT_SHORT = () => new ApiError("invalid_request", "The request body was cut short before its announced length.");

/** Collects chunks up to MAX_BODY_BYTES; more is a 413 whatever Content-Length claimed. */
async function collect(chunks: AsyncIterable<Uint8Array>, stop: () => unknown): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  let size = 0;
  try {
    for await (const chunk of chunks) {
      size += chunk.byteLength;
      if (size > MAX_BODY_BYTES) {
        await stop();
        throw TOO_LARGE();
      }
      parts.push(chunk);
    }
  } catch (error) {
    throw error instanceof ApiError ? error : CUT_SHORT();
  }
  return parts.length === 1 ? parts[0]! : Buffer.concat(parts);
}

/**
 * Reads a Node request body with listeners rather than an async iterator: leaving
 * an iterator early destroys the socket, and a 413 could then not be answered.
 * The rest of a too-large body is read and dropped.
 */
function readStreaming(incoming: IncomingMessage): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      outcome();
    };
    incoming.on("data", (chunk: Buffer) => {
      if (settled) return;
      size += chunk.byteLength;
      if (size > MAX_BODY_BYTES) settle(() => reject(TOO_LARGE()));
      else parts.push(chunk);
    });
    incoming.on("end", () => settle(() => resolve(parts.length === 1 ? parts[0]! : Buffer.concat(parts))));
    incoming.on("error", () => settle(() => reject(CUT_SHORT())));
    incoming.on("close", () => settle(() => reject(CUT_SHORT())));
  });
}

/**
 * A small body usually arrives in the packet its headers came in, but the
 * handler starts while Node's parser is still inside that packet. Waiting for
 * the end of the event loop's turn lets the parser finish it and every other
 * request that was ready: each complete body then sits whole in its stream's
 * buffer, and a single read() takes it, without the listeners, flowing mode and
 * events of reading it as a stream, which cost a small request more than the
 * rest of its work (measured in docs/performance.md).
 * Anything else (a body still arriving, or too large) is read as a stream.
 */
async function readIncoming(incoming: IncomingMessage): Promise<Uint8Array> {
  await new Promise(setImmediate);
  if (incoming.complete && incoming.readableLength <= MAX_BODY_BYTES) {
    // Reading everything from an ended stream lets it emit "end", as Node's keep-alive expects.
    return (incoming.read() as Buffer | null) ?? new Uint8Array();
  }
  // The client went away while we waited: its "close" has already been emitted.
  if (incoming.destroyed) throw CUT_SHORT();
  return readStreaming(incoming);
}

/**
 * Reads the body. On Node it reads the IncomingMessage itself: building a web
 * Request and its stream just to read a small JSON body cost a tenth of a
 * request's time. Elsewhere (app.request in tests) it reads the web stream.
 */
async function readLimited(c: Context): Promise<Uint8Array> {
  const declared = Number(header(c, "content-length") ?? "0");
  if (declared > MAX_BODY_BYTES) throw TOO_LARGE();
  const incoming = incomingOf(c.env);
  if (incoming && !incoming.readableDidRead) return readIncoming(incoming);
  const body = c.req.raw.body;
  if (!body) return new Uint8Array();
  const reader = body.getReader();
  const chunks = {
    async *[Symbol.asyncIterator]() {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        yield value;
      }
    },
  };
  return collect(chunks, () => reader.cancel());
}

function depthExceeds(value: unknown, limit: number): boolean {
  if (limit < 0) return true;
  if (Array.isArray(value)) return value.some((item) => depthExceeds(item, limit - 1));
  if (value !== null && typeof value === "object") return Object.values(value).some((item) => depthExceeds(item, limit - 1));
  return false;
}

/**
 * The request's JSON object body, masked (SPEC §9) before anything else sees it.
 * No body at all reads as `{}`. Checks run in the SPEC's order: size (413), then
 * content type, encoding, JSON syntax and shape, unpaired surrogates (400).
 */
export async function readJsonBody(c: Context): Promise<Record<string, unknown>> {
  const bytes = await readLimited(c);
  if (bytes.byteLength === 0) return {};
  const type = (header(c, "content-type") ?? "").split(";")[0]!.trim().toLowerCase();
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
    throw new ApiError("invalid_request", "The request body must be a JSON object, e.g. {\"amount\": 1000}.");
  }
  if (depthExceeds(parsed, MAX_DEPTH)) {
    throw new ApiError("invalid_request", `The request body is nested more than ${MAX_DEPTH} levels deep.`);
  }
  // Only a JSON \u escape can make a lone surrogate: the fatal decoder refuses any bytes that encode one.
  if (text.includes("\\u")) refuseIllFormedText(parsed as Record<string, unknown>);
  const masked = maskValue(parsed) as Record<string, unknown>;
  // Masking drops a top-level cvv, but it is still a field no call accepts: keep its
  // name (never its value) so that validation refuses it instead of silently ignoring it.
  for (const key of Object.keys(parsed)) if (isDroppedField(key)) masked[key] = "[removed]";
  return masked;
}

const KEY_SHAPE = /^[\x20-\x7e]{1,255}$/;

/** The Idempotency-Key header, checked for shape; required on creations (SPEC §6). */
export function idempotencyKey(c: Context, required: boolean): string | undefined {
  const key = header(c, "idempotency-key");
  if (key === undefined) {
    if (!required) return undefined;
    throw new ApiError(
      "invalid_request",
      "The Idempotency-Key header is required on this call: send a unique value per operation, e.g. a UUID.",
      "Idempotency-Key",
    );
  }
  // Node joins repeated header lines with ", ", which would read as one valid key.
  const lines = headerLineCount(c, "idempotency-key");
  if (lines > 1) {
    throw new ApiError("invalid_request", `The Idempotency-Key header was sent ${lines} times: send exactly one key.`, "Idempotency-Key");
  }
  if (!KEY_SHAPE.test(key)) {
    throw new ApiError("invalid_request", "Idempotency-Key must be 1 to 255 printable ASCII characters.", "Idempotency-Key");
  }
  return key;
}

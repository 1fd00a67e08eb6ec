import type { Context } from "hono";
import { ApiError } from "../../domain/errors.js";
import type { AppEnv } from "../env.js";
import { header, headerLineCount } from "../node-adapter.js";

/** What an Idempotency-Key may be (docs/api.md); the OpenAPI document gives it as the header's pattern. */
export const KEY_SHAPE = /^[\x20-\x7e]{1,255}$/;

/**
 * The request's Idempotency-Key header, its shape checked (docs/api.md); `required` on
 * creations. Read after the body: a bad body is the error to report first (docs/api.md).
 */
export function idempotencyKeyOf(c: Context<AppEnv>, required: boolean): string | undefined {
  return checkedKey(header(c, "idempotency-key"), headerLineCount(c, "idempotency-key"), required);
}

function checkedKey(key: string | undefined, lines: number, required: boolean): string | undefined {
  if (key === undefined) {
    if (!required) return undefined;
    throw new ApiError(
      "invalid_request",
      "The Idempotency-Key header is required on this call: send a unique value per operation, e.g. a UUID.",
      "Idempotency-Key",
    );
  }
  // Node joins repeated header lines with ", ", which would read as one valid key.
  if (lines > 1) {
    throw new ApiError("invalid_request", `The Idempotency-Key header was sent ${lines} times: send exactly one key.`, "Idempotency-Key");
  }
  if (!KEY_SHAPE.test(key)) {
    throw new ApiError("invalid_request", "Idempotency-Key must be 1 to 255 printable ASCII characters.", "Idempotency-Key");
  }
  return key;
}

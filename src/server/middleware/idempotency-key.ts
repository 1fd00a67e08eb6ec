import { createMiddleware } from "hono/factory";
import { ApiError } from "../../domain/errors.js";
import type { AppEnv } from "../env.js";
import { header, headerLineCount } from "../node-adapter.js";

/** What an Idempotency-Key may be (docs/api.md); the OpenAPI document gives it as the header's pattern. */
export const KEY_SHAPE = /^[\x20-\x7e]{1,255}$/;

/**
 * Checks the Idempotency-Key header's shape (docs/api.md) and gives it to the route
 * (`c.get("idempotencyKey")`); `required` on creations. Runs after the body is
 * read: a bad body is the error to report first (docs/api.md).
 *
 * @example
 * app.post("/", jsonBody(), idempotencyKey({ required: true }), handler);
 */
export function idempotencyKey({ required }: { required: boolean }) {
  return createMiddleware<AppEnv>(function idempotencyKeyMiddleware(c, next) {
    c.set("idempotencyKey", checkedKey(header(c, "idempotency-key"), headerLineCount(c, "idempotency-key"), required));
    return next();
  });
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

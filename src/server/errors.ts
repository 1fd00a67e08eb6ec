import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { ApiError, type ErrorCode } from "../domain/errors.js";
import { maskText } from "../domain/masking.js";
import { jsonText } from "./respond.js";

/** The one table from error code to HTTP status (SPEC §2). */
export const HTTP_STATUS: Record<ErrorCode, ContentfulStatusCode> = {
  invalid_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  idempotency_conflict: 409,
  payload_too_large: 413,
  internal_error: 500,
};

export { ApiError };

/** The error body of SPEC §2, its message masked in case it echoes what the caller sent. */
export function errorResponse(c: Context, error: ApiError, headers: Record<string, string> = {}): Response {
  const requestId = c.get("requestId") as string;
  const body = {
    error: {
      code: error.code,
      message: maskText(error.message),
      ...(error.param === undefined ? {} : { param: maskText(error.param) }),
    },
    request_id: requestId,
  };
  if (error.code === "unauthorized") headers["WWW-Authenticate"] = "Bearer";
  return jsonText(c, JSON.stringify(body), HTTP_STATUS[error.code], headers);
}

import type { ContentfulStatusCode } from "hono/utils/http-status";
import * as z from "zod";
import { requestIdSchema } from "../domain/answer-schemas.js";
import { ApiError, type ErrorCode } from "../domain/errors.js";
import { DEFAULT_RETRY_AFTER_SECONDS } from "../domain/faults.js";
import { maskText } from "../domain/masking.js";
import { jsonResponse } from "./respond.js";

/** The one table from error code to HTTP status (docs/api.md). */
export const HTTP_STATUS: Record<ErrorCode, ContentfulStatusCode> = {
  invalid_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  idempotency_conflict: 409,
  wait_timeout: 408,
  payload_too_large: 413,
  rate_limited: 429,
  internal_error: 500,
  instance_limit: 400,
  nested_instance: 400,
  shutting_down: 503,
};

/** The codes answered with one HTTP status (docs/api.md's table, read the other way). */
export function codesOfStatus(status: number): ErrorCode[] {
  return (Object.keys(HTTP_STATUS) as ErrorCode[]).filter((code) => HTTP_STATUS[code] === status);
}

/**
 * The error body of docs/api.md for some of the codes: the type `errorResponse` builds, and
 * the OpenAPI document's schema of each error status.
 */
export function errorBodySchema(codes: readonly ErrorCode[]) {
  return z.strictObject({
    error: z.strictObject({
      code: z.enum(codes as readonly [ErrorCode, ...ErrorCode[]]),
      message: z.string(),
      param: z.string().optional(),
    }),
    request_id: requestIdSchema,
  });
}

type ErrorBody = z.infer<ReturnType<typeof errorBodySchema>>;

/** The code of each error answer made here, read back by the request log (for the coverage report). */
const answeredCodes = new WeakMap<Response, ErrorCode>();

/**
 * The error code `response` carries: the one errorResponse made it with, else (an answer replayed
 * from the store) the one code of its status, when only one has it.
 */
export function errorCodeOf(response: Response): ErrorCode | undefined {
  const made = answeredCodes.get(response);
  if (made !== undefined || response.status < 400) return made;
  const codes = codesOfStatus(response.status);
  return codes.length === 1 ? codes[0] : undefined;
}

/** The error body of docs/api.md, its message masked in case it echoes what the caller sent. */
export function errorResponse(requestId: string, error: ApiError, headers: Record<string, string> = {}): Response {
  const body: ErrorBody = {
    error: {
      code: error.code,
      message: maskText(error.message),
      ...(error.param === undefined ? {} : { param: maskText(error.param) }),
    },
    request_id: requestId,
  };
  if (error.code === "unauthorized") headers["WWW-Authenticate"] = "Bearer";
  // Only a fault rule (docs/faults.md) answers 429: the client may try again after the rule's seconds.
  if (error.code === "rate_limited") headers["Retry-After"] = String(error.retryAfterSeconds ?? DEFAULT_RETRY_AFTER_SECONDS);
  const response = jsonResponse(requestId, JSON.stringify(body), HTTP_STATUS[error.code], headers);
  answeredCodes.set(response, error.code);
  return response;
}

/**
 * The answer to anything a handler threw: an ApiError in its own shape, anything
 * else reported (with the request id) and answered as a masked 500.
 */
export function thrownResponse(requestId: string, error: unknown, report: (requestId: string, error: unknown) => void): Response {
  if (error instanceof ApiError) return errorResponse(requestId, error);
  report(requestId, error);
  return errorResponse(requestId, new ApiError("internal_error", `Something went wrong inside paysim; the log has details under request ${requestId}.`));
}

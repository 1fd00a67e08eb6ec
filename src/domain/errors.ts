/**
 * The error codes paysim answers with. The HTTP status of each lives in
 * server/errors.ts: domain code raises a code, only the HTTP layer knows statuses.
 */
export type ErrorCode =
  | "invalid_request"
  | "unauthorized"
  | "forbidden"
  | "not_found"
  | "method_not_allowed"
  | "idempotency_conflict"
  | "payload_too_large"
  | "rate_limited"
  | "internal_error"
  | "instance_limit"
  | "nested_instance"
  /** A wait over HTTP (GET /v1/sandbox/…/wait) saw nothing match within its timeout_ms. */
  | "wait_timeout"
  /** A wait over HTTP ended because paysim is stopping. */
  | "shutting_down";

/**
 * An error meant for the API caller: its message says what to change.
 *
 * @example
 * throw new ApiError("invalid_request", "amount must be a positive integer.", "amount");
 */
export class ApiError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly param?: string,
    /** For `rate_limited`: the seconds its `Retry-After` header says (the fault rule's). */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

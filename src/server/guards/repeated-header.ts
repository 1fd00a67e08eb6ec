import { ApiError, type ErrorCode } from "../../domain/errors.js";

/**
 * Refuses a header sent on more than one line. Node keeps the first Host, Authorization or
 * Content-Type of several and drops the rest; reading "the first one" would answer a request
 * that proxies and clients may read another way (RFC 9110 allows one of each).
 */
export function refuseRepeated(lines: number, name: string, code: ErrorCode): void {
  if (lines > 1) throw new ApiError(code, `The ${name} header was sent ${lines} times: send it exactly once.`, name);
}

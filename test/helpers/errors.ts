import { expect } from "vitest";
import type { z } from "zod";
import { ApiError } from "../../src/domain/errors.js";
import { parseOrThrow } from "../../src/domain/validation.js";

/** Asserts the docs/api.md error shape: status, code, optional param, and request_id matching the Request-Id header. */
export function expectApiError(
  response: { status: number; body: any; headers: Headers | Record<string, string | string[] | undefined> },
  status: number,
  code: string,
  param?: string,
): void {
  expect({ status: response.status, code: response.body?.error?.code }, JSON.stringify(response.body)).toEqual({ status, code });
  if (param !== undefined) expect(response.body.error.param).toBe(param);
  expect(typeof response.body.error.message).toBe("string");
  expect(response.body.error.message.length).toBeGreaterThan(0);
  expect(response.body.request_id).toMatch(/^req_[0-9A-Za-z]{24}$/);
  const header = response.headers instanceof Headers ? response.headers.get("request-id") : response.headers["request-id"];
  expect(header).toBe(response.body.request_id);
}

/** The ApiError `schema` refuses `input` with, through parseOrThrow; fails the test if it accepts it. */
export function refusal(schema: z.ZodType<unknown>, input: unknown): ApiError {
  try {
    parseOrThrow(schema, input);
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error(`expected ${JSON.stringify(input)} to be refused`);
}

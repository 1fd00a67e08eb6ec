import type * as z from "zod";
import type { ErrorCode } from "../../domain/errors.js";

/**
 * One operation of the /v1 API as the OpenAPI document (docs/api.md) describes it, written next to
 * the route that serves it and made of the very zod schemas the route validates with and builds
 * its answer from. The error answers follow from what it takes (see document.ts).
 *
 * @example
 * { operationId: "getPayout", method: "get", path: "/:id", summary: "Read a payout", answers: { 200: withRequestIdSchema(PAYOUT_SHAPE.schema) } }
 */
export interface Operation {
  /** A name for the operation, unique in the API: generated clients call it by this name. */
  operationId: string;
  method: "get" | "post" | "delete";
  /** The path as the route's module registers it (`/`, `/:id/capture`); app.ts adds where it is mounted. */
  path: string;
  summary: string;
  /** The schema the route parses its JSON body with; absent: the route takes no body. A body is optional when `{}` passes it. */
  body?: z.ZodType;
  /** The strict object the route parses its query string with; absent: the query is not read. */
  query?: z.ZodObject;
  /** The route's Idempotency-Key header (middleware/idempotency-key.ts): required or optional; absent: not read. */
  idempotencyKey?: "required" | "optional";
  /** The success answers: HTTP status → the schema of the JSON the route sends. */
  answers: Partial<Record<200 | 201, z.ZodType>>;
  /** True for the one operation that needs no key (the document itself). */
  noKey?: boolean;
  /** Error codes that only the operations naming them answer (OPERATION_OWN_CODES). */
  ownErrors?: readonly ErrorCode[];
  /** An example request body (for an operation that takes one) and success answer, shown in the document. */
  example?: { body?: unknown; answer: unknown };
}

/** An operation whose path is the whole /v1 path (Hono syntax: `/v1/payouts/:id`). */
export type MountedOperation = Operation;

/** `operations` of a module mounted at `prefix` (`/v1/payouts`), with their whole paths. */
export function mountedAt(prefix: string, operations: readonly Operation[]): MountedOperation[] {
  return operations.map((operation) => ({ ...operation, path: operation.path === "/" ? prefix : `${prefix}${operation.path}` }));
}

/** Codes that only the operations naming them in `ownErrors` answer: none but those may answer them. */
export const OPERATION_OWN_CODES: readonly ErrorCode[] = ["instance_limit", "nested_instance", "wait_timeout", "shutting_down"];

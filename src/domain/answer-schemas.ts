import * as z from "zod";
import type { IdPrefix } from "./ids.js";

/**
 * Building blocks of the answers' schemas (docs/api.md): the zod schemas that type
 * what the API sends and that the OpenAPI document (docs/api.md) is generated from.
 */

/** An identifier paysim made: `prefix_` and 24 base62 characters. */
export const idOf = (prefix: IdPrefix, message?: { error: (issue: { input?: unknown }) => string }) =>
  z.string(message).regex(new RegExp(`^${prefix}_[0-9A-Za-z]{24}$`), message);

/** The `req_…` id of the request that made an answer (or an event). */
export const requestIdSchema = z.lazy(() => idOf("req"));

/** An ISO 8601 UTC timestamp with milliseconds and `Z`, read from the clock. */
export const timestampSchema = z.lazy(() => z.iso.datetime({ precision: 3 }));

const answers = new WeakMap<z.ZodType, z.ZodType>();

/**
 * A resource as an answer carries it: with this request's id as its last member. One schema per
 * resource, whichever route asks, so the OpenAPI document describes each answer once. Like the
 * resource's own schema it is built on first use (only the document and the coverage read answers).
 */
export function withRequestIdSchema<Shape extends z.ZodRawShape>(resource: z.ZodObject<Shape> | z.ZodLazy<z.ZodObject<Shape>>) {
  const made = () => z.lazy(() => (resource instanceof z.ZodLazy ? resource.unwrap() : resource).extend({ request_id: requestIdSchema }));
  let answer = answers.get(resource) as ReturnType<typeof made> | undefined;
  if (!answer) {
    answer = made();
    answers.set(resource, answer);
  }
  return answer;
}

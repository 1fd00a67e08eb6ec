import type { Context } from "hono";
import * as z from "zod";
import { ApiError } from "../domain/errors.js";
import { limitSchema, oneOfQuery, parseOrThrow } from "../domain/validation.js";
import type { PageQuery } from "../store/repos/paging.js";
import { companyOf, type AppEnv } from "./env.js";

/** Building a zod schema costs far more than using one: one per list, made once, found by its filter's (constant) values. */
const schemas = new Map<readonly string[], z.ZodType>();

function listSchema(filter: { name: string; values: readonly string[] }): z.ZodType {
  let schema = schemas.get(filter.values);
  if (!schema) {
    schema = z.strictObject({
      limit: limitSchema,
      starting_after: z.string().optional(),
      [filter.name]: oneOfQuery(filter.name, filter.values),
    });
    schemas.set(filter.values, schema);
  }
  return schema;
}

/**
 * Parses `limit`, `starting_after` and one filter of a list call. Unknown query
 * parameters are refused like unknown body fields: a typo must not widen a list.
 */
export function parseListQuery<T extends string>(
  c: Context<AppEnv>,
  filter: { name: string; values: readonly T[] },
  seqOf: (companyId: string, id: string) => number | undefined,
): PageQuery {
  const schema = listSchema(filter);
  const query = parseOrThrow(schema, c.req.query()) as { limit: number; starting_after?: string } & Record<string, unknown>;
  let beforeSeq: number | undefined;
  if (query.starting_after !== undefined) {
    beforeSeq = seqOf(companyOf(c).id, query.starting_after);
    if (beforeSeq === undefined) {
      throw new ApiError("invalid_request", `starting_after must be the id of an object in this list; "${query.starting_after}" is not.`, "starting_after");
    }
  }
  return { limit: query.limit, filter: query[filter.name] as string | undefined, beforeSeq };
}

import type { Context } from "hono";
import { z } from "zod";
import { ApiError } from "../domain/errors.js";
import { limitSchema, oneOfQuery, parseOrThrow } from "../domain/validation.js";
import type { PageQuery } from "../store/repos/paging.js";
import { companyOf, type AppEnv } from "./env.js";

/**
 * Parses `limit`, `starting_after` and one filter of a list call. Unknown query
 * parameters are refused like unknown body fields: a typo must not widen a list.
 */
/** Building a zod schema costs far more than using one: one per list filter, made once. */
const schemas = new Map<string, z.ZodType>();

function listSchema(filter: { name: string; values: readonly string[] }): z.ZodType {
  const key = `${filter.name}=${filter.values.join(",")}`;
  let schema = schemas.get(key);
  if (!schema) {
    schema = z.strictObject({
      limit: limitSchema,
      starting_after: z.string().optional(),
      [filter.name]: oneOfQuery(filter.name, filter.values),
    });
    schemas.set(key, schema);
  }
  return schema;
}

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

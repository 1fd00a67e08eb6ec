import type { Context } from "hono";
import * as z from "zod";
import { ApiError } from "../domain/errors.js";
import { limitSchema, oneOfQuery, parseOrThrow } from "../domain/validation.js";
import type { PageQuery } from "../store/repos/paging.js";
import { companyOf, type AppEnv } from "./env.js";

type ParsedQuery = { limit: number; starting_after?: string } & Record<string, unknown>;

/**
 * One list's query schema (building a zod schema costs far more than using
 * one), and the queries it has parsed, by their raw text. Parsing is pure and
 * most calls repeat a few queries (a poll's `?limit=10`): a remembered one
 * skips parsing the URL's query and validating it, about a tenth of a list
 * call. At most REMEMBERED per list, the oldest forgotten first; refused
 * queries are never kept.
 */
interface ListQueries {
  schema: z.ZodType;
  parsed: Map<string, ParsedQuery>;
}

const REMEMBERED = 256;

/** Found by the filter's values array, a constant of each list. */
const lists = new Map<readonly string[], ListQueries>();

function queriesOf(filter: { name: string; values: readonly string[] }): ListQueries {
  let queries = lists.get(filter.values);
  if (!queries) {
    const schema = z.strictObject({
      limit: limitSchema,
      starting_after: z.string().optional(),
      [filter.name]: oneOfQuery(filter.name, filter.values),
    });
    queries = { schema, parsed: new Map() };
    lists.set(filter.values, queries);
  }
  return queries;
}

/**
 * The query's parameters, each given once. A repeated one (`limit=10&limit=20`,
 * or the same name percent-encoded) is refused: which of its values the client
 * meant is anyone's guess.
 */
export function singleQuery(c: Context): Record<string, string> {
  const query: Record<string, string> = Object.create(null);
  for (const [name, values] of Object.entries(c.req.queries())) {
    if (values.length > 1) {
      throw new ApiError("invalid_request", `The query parameter ${name} was given ${values.length} times: send it once.`, name);
    }
    query[name] = values[0]!;
  }
  return query;
}

function parsedQuery(c: Context, queries: ListQueries): ParsedQuery {
  const url = c.req.url;
  const at = url.indexOf("?");
  const text = at === -1 ? "" : url.slice(at + 1);
  let parsed = queries.parsed.get(text);
  if (!parsed) {
    parsed = parseOrThrow(queries.schema, singleQuery(c)) as ParsedQuery;
    if (queries.parsed.size >= REMEMBERED) queries.parsed.delete(queries.parsed.keys().next().value!);
    queries.parsed.set(text, parsed);
  }
  return parsed;
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
  const query = parsedQuery(c, queriesOf(filter));
  let beforeSeq: number | undefined;
  if (query.starting_after !== undefined) {
    beforeSeq = seqOf(companyOf(c).id, query.starting_after);
    if (beforeSeq === undefined) {
      throw new ApiError("invalid_request", `starting_after must be the id of an object in this list; "${query.starting_after}" is not.`, "starting_after");
    }
  }
  return { limit: query.limit, filter: query[filter.name] as string | undefined, beforeSeq };
}

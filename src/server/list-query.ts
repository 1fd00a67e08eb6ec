import type { Context } from "hono";
import * as z from "zod";
import { idOf } from "../domain/answer-schemas.js";
import { ApiError } from "../domain/errors.js";
import type { IdPrefix } from "../domain/ids.js";
import { parseOrThrow } from "../domain/validation.js";
import type { PageQuery } from "../store/repos/paging.js";
import { companyOf, type AppEnv } from "./env.js";
import { limitSchema, oneOfQuery } from "./query-schemas.js";

type ParsedQuery = { limit: number; starting_after?: string } & Record<string, unknown>;

/** Queries remembered per list, the oldest forgotten first. */
const REMEMBERED = 256;

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

const notInList = (value: unknown) => `starting_after must be the id of an object in this list; "${String(value)}" is not.`;

/** The query of one list: `limit`, `starting_after` and the list's one filter, as one strict zod object. */
export interface ListQuery {
  readonly filterName: string;
  readonly schema: z.ZodObject;
}

/**
 * The query schema of a list with the filter `name` (one of `values`). Unknown query parameters
 * are refused like unknown body fields: a typo must not widen a list. The route parses with it
 * (`listQueryParser`) and the OpenAPI document describes its parameters from it.
 */
export function listQuery<T extends string>(filter: { name: string; values: readonly T[] }, idPrefix: IdPrefix): ListQuery {
  const schema = z.strictObject({
    limit: limitSchema,
    // A malformed id is told as an unknown one is (parseListQuery): it names no object of the list.
    starting_after: idOf(idPrefix, { error: (issue) => notInList(issue.input) })
      .optional()
      .meta({ description: "The id of an object of this list: the page continues after it." }),
    [filter.name]: oneOfQuery(filter.name, filter.values),
  });
  return { filterName: filter.name, schema };
}

/**
 * The query parser of one list (of one instance): parses `limit`,
 * `starting_after` and the list's one filter with the list's schema.
 *
 * It remembers the queries it has parsed, by their raw text (a zod schema is
 * built once per list, as building one costs far more than using one): parsing is
 * pure and most calls repeat a few queries (a poll's `?limit=10`), and a
 * remembered one skips parsing the URL's query and validating it, about a
 * tenth of a list call. At most REMEMBERED are kept; refused queries never are.
 *
 * @example
 * const PAYOUTS_QUERY = listQuery({ name: "status", values: PAYOUT_STATUSES }, "po");
 * const parseQuery = listQueryParser(PAYOUTS_QUERY);
 * app.get("/", (c) => listResponse(c, …payouts.list(companyId, parseQuery(c, payouts.seqOf))…));
 */
export function listQueryParser({ filterName, schema }: ListQuery) {
  const remembered = new Map<string, ParsedQuery>();

  function parsedQuery(c: Context): ParsedQuery {
    const url = c.req.url;
    const at = url.indexOf("?");
    const text = at === -1 ? "" : url.slice(at + 1);
    let parsed = remembered.get(text);
    if (!parsed) {
      parsed = parseOrThrow(schema, singleQuery(c)) as ParsedQuery;
      if (remembered.size >= REMEMBERED) remembered.delete(remembered.keys().next().value!);
      remembered.set(text, parsed);
    }
    return parsed;
  }

  return function parseListQuery(c: Context<AppEnv>, seqOf: (companyId: string, id: string) => number | undefined): PageQuery {
    const query = parsedQuery(c);
    let beforeSeq: number | undefined;
    if (query.starting_after !== undefined) {
      beforeSeq = seqOf(companyOf(c).id, query.starting_after);
      if (beforeSeq === undefined) {
        throw new ApiError("invalid_request", notInList(query.starting_after), "starting_after");
      }
    }
    return { limit: query.limit, filter: query[filterName] as string | undefined, beforeSeq };
  };
}

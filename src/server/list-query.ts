import type { Context } from "hono";
import { notInList, type ListQueryInput } from "../contracts/common.js";
import { ApiError } from "../domain/errors.js";
import type { PageQuery } from "../store/repos/paging.js";

/**
 * The query's parameters, each given once. A repeated one (`limit=10&limit=20`,
 * or the same name percent-encoded) is refused: which of its values the client
 * meant is anyone's guess. One that takes several values (`commaSeparated`) is
 * shown them in the one form it reads, `type=a,b`: HTTP clients send a list as
 * `type=a&type=b`.
 */
export function singleQuery(c: Context, commaSeparated: (name: string) => boolean = () => false): Record<string, string> {
  const query: Record<string, string> = Object.create(null);
  for (const [name, values] of Object.entries(c.req.queries())) {
    if (values.length > 1) {
      const fix = commaSeparated(name) ? `give its values once, comma-separated: ${name}=${values.join(",")}` : "send it once";
      throw new ApiError("invalid_request", `The query parameter ${name} was given ${values.length} times: ${fix}.`, name);
    }
    query[name] = values[0]!;
  }
  return query;
}

/**
 * A page of a list held whole, in its own order (the webhook endpoints, fault rules and
 * instances: a few each): `limit` objects after the one `starting_after` names (else 400), each
 * as its JSON text.
 */
export function pageOfWhole(items: readonly { id: string }[], query: ListQueryInput): { list: string[]; hasMore: boolean } {
  let from = 0;
  if (query.starting_after !== undefined) {
    from = items.findIndex((item) => item.id === query.starting_after) + 1;
    if (from === 0) throw new ApiError("invalid_request", notInList(query.starting_after), "starting_after");
  }
  return { list: items.slice(from, from + query.limit).map((item) => JSON.stringify(item)), hasMore: items.length > from + query.limit };
}

/**
 * A list's page from its validated query (contracts/common.ts `listQuerySchema`): `starting_after`
 * must name an object of this list (`seqOf` finds its place), else 400.
 */
export function pageQuery(
  query: ListQueryInput,
  filterName: string,
  companyId: string,
  seqOf: (companyId: string, id: string) => number | undefined,
): PageQuery {
  let beforeSeq: number | undefined;
  if (query.starting_after !== undefined) {
    beforeSeq = seqOf(companyId, query.starting_after);
    if (beforeSeq === undefined) {
      throw new ApiError("invalid_request", notInList(query.starting_after), "starting_after");
    }
  }
  return { limit: query.limit, filter: query[filterName] as string | undefined, beforeSeq };
}

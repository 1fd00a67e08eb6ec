import type { Context } from "hono";
import type * as z from "zod";
import { takesCommaSeparated } from "../../contracts/common.js";
import { parseOrThrow } from "../../domain/validation.js";
import { singleQuery } from "../list-query.js";

/** Queries remembered per operation, the oldest forgotten first. */
const REMEMBERED = 256;

/**
 * The query parser of one operation: validates the query string with the operation's schema.
 *
 * It remembers the queries it has parsed, by their raw text: parsing is pure and most calls
 * repeat a few queries (a poll's `?limit=10`), and a remembered one skips parsing the URL's
 * query and validating it, a noticeable part of a list call. At most REMEMBERED are kept; refused
 * queries never are.
 */
export function rememberedQueryParser(schema: z.ZodType): (c: Context) => unknown {
  const remembered = new Map<string, unknown>();
  const commaSeparated = (name: string) => takesCommaSeparated(schema, name);
  return function parseQuery(c: Context): unknown {
    const url = c.req.url;
    const at = url.indexOf("?");
    const text = at === -1 ? "" : url.slice(at + 1);
    if (remembered.has(text)) return remembered.get(text);
    const parsed = parseOrThrow(schema, singleQuery(c, commaSeparated));
    if (remembered.size >= REMEMBERED) remembered.delete(remembered.keys().next().value!);
    remembered.set(text, parsed);
    return parsed;
  };
}

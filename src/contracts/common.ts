/**
 * What the operations of several resources share in their contracts: the list envelope, the
 * list query, and the empty body and query of calls that take none.
 *
 * src/contracts/ holds, per resource, the input and answer schemas of its operations: the API
 * validates with them, the OpenAPI document is written from them, and the CLI and the package's
 * types are inferred from them, so none of these can say something the others do not.
 *
 * Each schema is built on first use (`z.lazy`): a run pays only for the operations it calls, and
 * answers are built only for the OpenAPI document and the coverage report.
 */
import * as z from "zod";
import { idOf, requestIdSchema } from "../domain/answer-schemas.js";
import type { IdPrefix } from "../domain/ids.js";

export { withRequestIdSchema } from "../domain/answer-schemas.js";

/** The body of a call that takes none: any field is refused as unknown. */
export const noBody = z.lazy(() => z.strictObject({}));

/** The query of a call that takes none: a typo must not pass unnoticed. */
export const noQuery = z.lazy(() => z.strictObject({}));

/** A query-string `limit`: an integer 1…100, default 10. */
export const limitSchema = z.lazy(() =>
  z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (raw === undefined) return 10;
      const value = /^\d{1,3}$/.test(raw) ? Number(raw) : NaN;
      if (!(value >= 1 && value <= 100)) {
        ctx.addIssue({ code: "custom", message: "limit must be an integer from 1 to 100." });
        return z.NEVER;
      }
      return value;
    })
    // What the text must hold, for the OpenAPI document: an integer, 10 when absent.
    .meta({ type: "integer", minimum: 1, maximum: 100, description: "How many objects, 1 to 100; 10 when absent." }),
);

/** The query parameters that take several values in one, comma-separated (`type=a,b`). */
const commaSeparatedQueries = new WeakSet<z.ZodType>();

/** Marks a query parameter that takes several values comma-separated: a repeated one's refusal shows that form. */
export function commaSeparated<T extends z.ZodType>(parameter: T): T {
  commaSeparatedQueries.add(parameter);
  return parameter;
}

/** Whether the parameter `name` of the query `schema` takes several values comma-separated. */
export function takesCommaSeparated(schema: z.ZodType, name: string): boolean {
  let object: unknown = schema;
  while (object instanceof z.ZodLazy) object = object.unwrap();
  const parameter: unknown = object instanceof z.ZodObject ? (object.shape as Record<string, unknown>)[name] : undefined;
  return parameter instanceof z.ZodType && commaSeparatedQueries.has(parameter);
}

/** A query-string value that must be one of `values`. */
export function oneOfQuery<T extends string>(name: string, values: readonly T[]) {
  return z.enum(values as readonly [T, ...T[]], { error: `${name} must be one of: ${values.join(", ")}.` }).optional();
}

/** The refusal of a `starting_after` that names no object of the list, malformed or unknown. */
export const notInList = (value: unknown) => `starting_after must be the id of an object in this list; "${String(value)}" is not.`;

/** A parsed list query: how many, after which object, and the list's one filter. */
export interface ListQueryInput {
  limit: number;
  starting_after?: string;
  [filter: string]: unknown;
}

/** What every list's query holds (docs/api.md): `limit`, and `starting_after` naming an object of ids `idPrefix`. */
function pageParameters(idPrefix: IdPrefix) {
  return {
    limit: limitSchema,
    // A malformed id is told as an unknown one is (server/list-query.ts): it names no object of the list.
    starting_after: idOf(idPrefix, { error: (issue) => notInList(issue.input) })
      .optional()
      .meta({ description: "The id of an object of this list: the page continues after it." }),
  };
}

/**
 * The query of a list with the filter `name` (one of `values`), or none: `limit`, `starting_after`
 * and the filter. Unknown query parameters are refused like unknown body fields: a typo must not widen a list.
 */
export function listQuerySchema<T extends string>(idPrefix: IdPrefix, filter?: { name: string; values: readonly T[] }) {
  return z.lazy(() =>
    z.strictObject({ ...pageParameters(idPrefix), ...(filter ? { [filter.name]: oneOfQuery(filter.name, filter.values) } : {}) }),
  ) as unknown as z.ZodType<ListQueryInput>;
}

/** The list envelope (docs/api.md) around items of `item`'s schema. */
export function listEnvelopeSchema<Item extends z.ZodType>(item: Item) {
  return z.lazy(() => z.strictObject({ object: z.literal("list"), data: z.array(item), has_more: z.boolean(), request_id: requestIdSchema }));
}

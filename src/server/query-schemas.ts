import * as z from "zod";

/** A query-string `limit`: an integer 1…100, default 10. */
export const limitSchema = z
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
  .meta({ type: "integer", minimum: 1, maximum: 100, description: "How many objects, 1 to 100; 10 when absent." });

/** A query-string value that must be one of `values`. */
export function oneOfQuery<T extends string>(name: string, values: readonly T[]) {
  return z.enum(values as readonly [T, ...T[]], { error: `${name} must be one of: ${values.join(", ")}.` }).optional();
}

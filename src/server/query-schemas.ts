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
  });

/** A query-string value that must be one of `values`. */
export function oneOfQuery<T extends string>(name: string, values: readonly T[]) {
  return z
    .string()
    .optional()
    .refine((v) => v === undefined || (values as readonly string[]).includes(v), {
      error: `${name} must be one of: ${values.join(", ")}.`,
    })
    .transform((v) => v as T | undefined);
}

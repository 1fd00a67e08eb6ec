import * as z from "zod";
import { ApiError } from "./errors.js";
import { isCurrency, MAX_AMOUNT } from "./money.js";

/**
 * Parses `input` with a zod schema; the first problem becomes an
 * `invalid_request` ApiError naming the field (`param`) and what to send instead.
 * Unknown fields are reported first: a typo explains a "missing" field.
 */
export function parseOrThrow<T>(schema: z.ZodType<T>, input: unknown): T {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issues = [...result.error.issues].sort(
    (a, b) => Number(b.code === "unrecognized_keys") - Number(a.code === "unrecognized_keys"),
  );
  const issue = issues[0]!;
  if (issue.code === "unrecognized_keys") {
    const key = issue.keys[0]!;
    const param = [...issue.path.map(String), key].join(".");
    throw new ApiError("invalid_request", `Unknown field "${param}": remove it or check its spelling.`, param);
  }
  const param = issue.path.map(String).join(".") || undefined;
  throw new ApiError("invalid_request", issue.message, param);
}

/** Message for a missing value or one of the wrong kind. */
function need(field: string, what: string) {
  return (issue: { input?: unknown }) =>
    issue.input === undefined ? `${field} is required: ${what}.` : `${field} must be ${what}.`;
}

const AMOUNT_RULE = `a positive integer in minor units from 1 to ${MAX_AMOUNT} (e.g. 1000 for 10.00)`;

export const amountSchema = z
  .number({ error: need("amount", AMOUNT_RULE) })
  .int({ error: `amount must be ${AMOUNT_RULE}; fractions are not allowed.` })
  .min(1, { error: `amount must be ${AMOUNT_RULE}.` })
  .max(MAX_AMOUNT, { error: `amount must be ${AMOUNT_RULE}.` });

const CURRENCY_RULE = "a three-letter upper-case ISO 4217 code such as EUR or USD";

export const currencySchema = z
  .string({ error: need("currency", CURRENCY_RULE) })
  .refine(isCurrency, { error: `currency must be ${CURRENCY_RULE}.` });

export const descriptionSchema = z
  .string({ error: "description must be a string." })
  .max(1000, { error: "description must be at most 1000 characters." });

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

/** Body schema for a create call: a strict object (unknown fields refused). */
export const strictBody = z.strictObject;

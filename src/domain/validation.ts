import * as z from "zod";
import { withArticle } from "./articles.js";
import { ApiError } from "./errors.js";
import { CURRENCY_CODES, MAX_AMOUNT } from "./money.js";

/** The problem a message reports out of a zod error, with the path of the field at fault. */
export interface ReportedProblem {
  /** The field at fault, from the top: for an unknown field, its own name last. */
  path: PropertyKey[];
  /** Whether the field at fault is one the schema does not know. */
  unknownField: boolean;
  /** The schema's words for the problem (zod's own for an unknown field). */
  message: string;
}

/**
 * The one problem to report of a failed zod parse: an unknown field first (a typo explains a
 * "missing" field), else the first problem found. Every input paysim validates with zod (API
 * bodies, config files, fixture files) reports through this; each words the path its own way.
 */
export function reportedProblem(error: z.ZodError): ReportedProblem {
  const issue = error.issues.find((candidate) => candidate.code === "unrecognized_keys") ?? error.issues[0]!;
  if (issue.code === "unrecognized_keys") return { path: [...issue.path, issue.keys[0]!], unknownField: true, message: issue.message };
  return { path: [...issue.path], unknownField: false, message: issue.message };
}

/**
 * Parses `input` with a zod schema; the reported problem becomes an
 * `invalid_request` ApiError naming the field (`param`) and what to send instead.
 */
export function parseOrThrow<T>(schema: z.ZodType<T>, input: unknown): T {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const problem = reportedProblem(result.error);
  const param = problem.path.map(String).join(".") || undefined;
  if (problem.unknownField) throw new ApiError("invalid_request", `Unknown field "${param}": remove it or check its spelling.`, param);
  throw new ApiError("invalid_request", problem.message, param);
}

/** What a parsed JSON value is, for a message: "a string", "null", "an array"… */
export function jsonTypeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  if (typeof value === "undefined") return "nothing";
  return withArticle(typeof value);
}

/**
 * Message for a missing value or one of the wrong kind: a value that is there
 * but of the wrong JSON type is named as such, never as missing.
 *
 * @example
 * need("seconds", "an integer from 1 to 60")({ input: "60" }) // "seconds must be an integer from 1 to 60 (got a string)."
 */
export function need(field: string, what: string) {
  return (issue: { input?: unknown }) =>
    issue.input === undefined ? `${field} is required: ${what}.` : `${field} must be ${what} (got ${jsonTypeOf(issue.input)}).`;
}

/**
 * Message for a field that takes one of a few strings: another string is the
 * wrong choice, anything else the wrong type.
 *
 * @example
 * needOneOf("to", ["paid", "failed"])({ input: 5 }) // "to must be one of paid, failed (got a number)."
 */
export function needOneOf(field: string, values: readonly string[]) {
  return needChoice(field, `one of ${values.join(", ")}`);
}

/**
 * Message for a field that takes one of a list of strings too long to repeat, told by `what`:
 * another string is the wrong choice, anything else the wrong type.
 *
 * @example
 * needChoice("currency", "an ISO 4217 code such as EUR")({ input: "AAA" }) // "currency must be an ISO 4217 code such as EUR."
 */
export function needChoice(field: string, what: string) {
  const wrongType = need(field, what);
  return (issue: { input?: unknown }) => (typeof issue.input === "string" ? `${field} must be ${what}.` : wrongType(issue));
}

const AMOUNT_RULE = `a positive integer in minor units from 1 to ${MAX_AMOUNT} (e.g. 1000 for 10.00)`;

export const amountSchema = z.lazy(() =>
  z
    .number({ error: need("amount", AMOUNT_RULE) })
    .int({ error: `amount must be ${AMOUNT_RULE}; fractions are not allowed.` })
    .min(1, { error: `amount must be ${AMOUNT_RULE}.` })
    .max(MAX_AMOUNT, { error: `amount must be ${AMOUNT_RULE}.` }),
);

const CURRENCY_RULE = "a three-letter upper-case ISO 4217 code such as EUR or USD";

/** A currency of a request: one of the codes isCurrency accepts, so the OpenAPI document lists them. */
export const currencySchema = z.lazy(() =>
  z.enum(CURRENCY_CODES, { error: needChoice("currency", CURRENCY_RULE) }).meta({ description: "An ISO 4217 currency code such as EUR." }),
);

export const descriptionSchema = z.lazy(() =>
  z.string({ error: need("description", "a string") }).max(1000, { error: "description must be at most 1000 characters." }),
);

/** Where something sits in a parsed JSON value (`path`), and whether it is a field name rather than a string value. */
export interface JsonSpot {
  path: (string | number)[];
  inKey: boolean;
}

/** The first field name or string value in a parsed JSON value that `isBad` refuses, depth first in document order. */
function findSpot(value: unknown, isBad: { key: (key: string) => boolean; text: (text: string) => boolean }): JsonSpot | undefined {
  if (typeof value === "string") return isBad.text(value) ? { path: [], inKey: false } : undefined;
  const within = (part: string | number, item: unknown) => {
    const inner = findSpot(item, isBad);
    return inner && { path: [part, ...inner.path], inKey: inner.inKey };
  };
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = within(i, value[i]);
      if (found) return found;
    }
  } else if (value !== null && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      if (isBad.key(key)) return { path: [key], inKey: true };
      const found = within(key, item);
      if (found) return found;
    }
  }
  return undefined;
}

/** The one object key that JavaScript assignment turns into a prototype rather than a field. */
const PROTO_KEY = "__proto__";

/**
 * The path to the first `__proto__` key anywhere in a parsed JSON value, or
 * undefined. Free-form objects (ingested `data`) are stored and sent on to
 * receivers, whose own copies would read such a key as a prototype.
 */
export function protoKeyPath(value: unknown): (string | number)[] | undefined {
  return findSpot(value, { key: (key) => key === PROTO_KEY, text: () => false })?.path;
}

/**
 * `schema` (an object with its own required fields) for a free-form object that
 * refuses a `__proto__` key at any depth, rather than dropping it silently. The
 * check runs on the raw value, before `schema` copies it; being a transform, it
 * leaves `schema` alone to describe the input (z.toJSONSchema, the OpenAPI document).
 */
export function freeFormObject<T extends z.ZodType>(schema: T) {
  return z
    .transform((value: unknown, ctx) => {
      const path = protoKeyPath(value);
      if (!path) return value;
      ctx.issues.push({ code: "custom", path, input: value, message: `"${PROTO_KEY}" is not accepted as a field name, at any depth: rename the field.` });
      return z.NEVER;
    })
    .pipe(schema);
}

const isIllFormed = (text: string): boolean => !text.isWellFormed();
const toWellFormed = (text: string): string => text.toWellFormed();

/**
 * The first string (field names included) in a parsed JSON value that holds an
 * unpaired UTF-16 surrogate, which JSON's `\ud800` escapes can produce though no
 * UTF-8 byte sequence can. Such a string has no single stored or sent form.
 */
export function findIllFormedText(value: unknown): JsonSpot | undefined {
  return findSpot(value, { key: isIllFormed, text: isIllFormed });
}

/** Refuses a request body holding ill-formed text: 400 naming the field (its unpaired surrogates shown as U+FFFD). */
export function refuseIllFormedText(body: Record<string, unknown>): void {
  const found = findIllFormedText(body);
  if (!found) return;
  const parts = found.path.map((part) => (typeof part === "string" ? toWellFormed(part) : String(part)));
  const param = parts.join(".");
  const what = found.inKey ? `The field name "${parts.at(-1)}"` : param;
  throw new ApiError(
    "invalid_request",
    `${what} holds an unpaired surrogate (a \\ud800-\\udfff escape without its other half), which is not text: send well-formed Unicode.`,
    param,
  );
}

/**
 * The checks table definitions use for what an imported snapshot may hold: only values paysim
 * itself could have written (docs/guarantees.md, "An import keeps only what paysim could have
 * written"). Each column is checked with the schema or rule the API, a config file or paysim's
 * own writers hold it to, not with a second list of its own; the store reads every row once and
 * asks these (store/snapshot-rows.ts).
 */
import * as z from "zod";
import { timestampSchema } from "../domain/answer-schemas.js";
import { reportedProblem } from "../domain/validation.js";
import type { ColumnCheck, KnownRow, SnapshotRow, SnapshotRules } from "./snapshot-rows.js";
import type { LazyObjectSchema, SnapshotSources } from "./snapshot-sources.js";
import { handedIn, type ColumnRule, type SnapshotCheck, type TableDefinition } from "./table.js";

/** The exact forms of the values paysim computes itself: a SHA-256 digest (of a key, an Idempotency-Key, a body), a Service-Signature header. */
export const COMPUTED_FORMS = {
  sha256Hex: /^[0-9a-f]{64}$/,
  signatureHeader: /^t=\d+,v1=[0-9a-f]{64}$/,
} as const;

/** The schema's own words for what is wrong with `value`, or undefined when it passes. */
export function problemWith(schema: z.ZodType, value: unknown): string | undefined {
  const result = schema.safeParse(value);
  if (result.success) return undefined;
  const problem = reportedProblem(result.error);
  const where = problem.path.length > 0 ? `at ${problem.path.map(String).join(".")}: ` : "";
  return problem.unknownField ? `${where}it holds a member no paysim writes` : `${where}${problem.message}`;
}

/** A column whose value `schema` holds to (built on first use). */
export function by(schema: z.ZodType | (() => z.ZodType)): ColumnCheck {
  let built = typeof schema === "function" ? undefined : schema;
  return (value) => problemWith((built ??= (schema as () => z.ZodType)()), value);
}

/** A column of a resource an answer schema handed in describes: the API's own schema of that member. */
export const member = (pick: (schemas: SnapshotSources["schemas"]) => LazyObjectSchema, name: string) =>
  handedIn((sources) => by(() => pick(sources.schemas).unwrap().shape[name] as z.ZodType));

/** The value a text column holds as JSON, or what keeps it from being JSON. */
function parsedJson(value: unknown): { parsed: unknown } | { problem: string } {
  if (typeof value !== "string") return { problem: "must be JSON text" };
  try {
    return { parsed: JSON.parse(value) as unknown };
  } catch {
    return { problem: "is not JSON" };
  }
}

/**
 * A text column holding JSON that `schema` holds to (NULL too when `nullable`), then, when given,
 * what `also` says of the parsed value and its row (what a schema cannot see: other rows, other columns).
 */
export function json(
  schema: z.ZodType | (() => z.ZodType),
  nullable = false,
  also?: (parsed: unknown, row: SnapshotRow, known: KnownRow) => string | undefined,
): ColumnCheck {
  const check = by(schema);
  return (value, row, known) => {
    if (value === null && nullable) return undefined;
    const read = parsedJson(value);
    if ("problem" in read) return read.problem;
    return check(read.parsed, row, known) ?? also?.(read.parsed, row, known);
  };
}

/** The id of a row of `table` read before (`key` of that table's definition). */
export const refersTo =
  (table: string, what = table): ColumnCheck =>
  (value, _row, known) =>
    known(table, value) ? undefined : `names no row of ${what} in the snapshot`;

/** The row's own sequence number: SQLite's rowid, a positive integer. */
export const seq = by(() => z.int().min(1));

/** A time paysim's clock can show: an ISO 8601 UTC timestamp with milliseconds (the answers' schema), from 1970 to 9999. */
const clockTime = () => timestampSchema.refine((text) => Date.parse(text) >= 0, { error: "must be a time from 1970 on" });
export const timestamp = by(clockTime);
export const maybeTimestamp = by(() => clockTime().nullable());

/** A flag column holding one of `values`. */
export const flag = (values: readonly number[]): ColumnCheck => by(() => z.union(values.map((v) => z.literal(v))));

/** A SHA-256 digest as paysim stores one: 64 lower-case hex digits. */
export const sha256Hex = by(() => z.string().regex(COMPUTED_FORMS.sha256Hex, { error: "must be a SHA-256 digest (64 lower-case hex digits)" }));

/** Milliseconds of paysim's clock as text, in the range a stored clock may hold (the rule a start reads the clock with). */
export const clockText = (sources: SnapshotSources, text: string): string | undefined => {
  const problem = sources.clock.problemWith(text);
  return problem === undefined ? undefined : `must be milliseconds of paysim's clock, from 0 (it ${problem})`;
};
export const clockMs = handedIn(
  (sources): ColumnCheck =>
    (value) =>
      Number.isInteger(value) ? clockText(sources, String(value)) : "must be an integer number of milliseconds",
);
export const maybeClockMs = handedIn((sources) => {
  const check = clockMs.handedIn(sources);
  return (value, row, known) => (value === null ? undefined : check(value, row, known));
});

const made = (check: SnapshotCheck, sources: SnapshotSources): ColumnCheck => (typeof check === "function" ? check : check.handedIn(sources));

/** A column's whole check: its API schema, then what else its definition says; or its snapshot check alone. */
function checkOf(rule: ColumnRule<unknown>, sources: SnapshotSources): ColumnCheck {
  if (rule.schema === undefined) return made(rule.check, sources);
  const schema = by(rule.schema);
  const also = rule.also === undefined ? undefined : made(rule.also, sources);
  return also === undefined ? schema : (value, row, known) => schema(value, row, known) ?? also(value, row, known);
}

/** The snapshot rules of `tables` (each after the tables its rows refer to), made with what the wiring hands in. */
export function rulesOf(tables: readonly TableDefinition[], sources: SnapshotSources): SnapshotRules {
  return tables.map((table) => ({
    table: table.name,
    key: table.key,
    ...(table.secret ? { secret: table.secret } : {}),
    columns: Object.fromEntries(table.columnNames.map((name) => [name, checkOf(table.columns[name]!.rule, sources)])),
  }));
}

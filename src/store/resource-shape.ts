/**
 * One field list per API resource, from which both of its JSON forms are made:
 * the object a read by id or a creation answers with (built in JavaScript), and
 * the `json_object` expression a list page is built with in SQLite (see
 * repos/paging.ts for why lists are built there). Adding a field to a resource
 * is one line in its list; the two forms cannot drift apart, and
 * test/server/list-json.test.ts holds them to the same bytes.
 *
 * Each field also carries the zod schema of its JSON value, so the resource's
 * schema (`ResourceShape.schema`, what the OpenAPI document describes) is made
 * from the same list as well. Schemas are built on first use: a run that
 * never validates an answer (only tests and the OpenAPI document do) builds none.
 *
 * Column names and constant texts come from paysim's own code, never from input.
 */
import * as z from "zod";

/** One member of a resource: its value from a row, the SQL expression giving the same JSON value, and that value's schema (made when asked). */
export interface Field<Row, Params, Value> {
  value(row: Row, params: Params): Value;
  readonly sql: string;
  schema(): z.ZodType<Value>;
}

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;

function identifier(name: string): string {
  if (!IDENTIFIER.test(name)) throw new Error(`not a plain SQL identifier: ${name}`);
  return name;
}

function sqlText(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

/** The columns of a table definition (store/table.ts) whose schema a resource's member takes. */
interface TableColumns<Row> {
  readonly name: string;
  readonly columns: { readonly [C in keyof Row]?: { readonly rule: { readonly schema?: () => z.ZodType<Row[C]> } } };
}

/**
 * The field kinds a resource is made of, for rows of type `Row` and named parameters `Params`. A
 * resource of a defined table gives `table`: a column's member then has the schema its definition
 * holds the column to, the one an imported snapshot is checked with too.
 */
export function fieldsFor<Row, Params extends object = Record<string, never>>(table?: TableColumns<Row>) {
  return {
    /** The column's value as it is stored; `schema` (else the table definition's) says what the API promises of it. */
    column<C extends keyof Row & string>(name: C, schema?: () => z.ZodType<Row[C]>): Field<Row, Params, Row[C]> {
      const promised = schema ?? table?.columns[name]?.rule.schema;
      if (promised === undefined) throw new Error(`the column ${table?.name ?? "?"}.${name} has no schema for the API to show it with`);
      return { value: (row) => row[name], sql: identifier(name), schema: promised };
    },
    /** The same text on every resource (`"object": "payout"`). */
    constant<T extends string>(text: T): Field<Row, Params, T> {
      return { value: () => text, sql: sqlText(text), schema: () => z.literal(text) };
    },
    /**
     * An object of text columns, or null unless every one of them holds a
     * non-empty text (a card is shown only when both its last4 and brand are known).
     */
    objectOrNull<M extends Record<string, keyof Row & string>>(members: M): Field<Row, Params, { [K in keyof M]: string } | null> {
      const entries = Object.entries(members);
      const all = entries.map(([, column]) => `${identifier(column)} <> ''`).join(" AND ");
      const object = entries.map(([name, column]) => `${sqlText(name)}, ${column}`).join(", ");
      const schema = () => z.strictObject(Object.fromEntries(entries.map(([name]) => [name, z.string().min(1)]))).nullable();
      return {
        value(row) {
          const out: Record<string, string> = {};
          for (const [name, column] of entries) {
            const text = row[column];
            if (typeof text !== "string" || text === "") return null;
            out[name] = text;
          }
          return out as { [K in keyof M]: string };
        },
        sql: `CASE WHEN ${all} THEN json_object(${object}) END`,
        schema: schema as unknown as () => z.ZodType<{ [K in keyof M]: string } | null>,
      };
    },
    /** A parameter's text, then `middle`, then a column's text (`checkout_url`: base URL + "/checkout/" + id). */
    joined<P extends keyof Params & string, C extends keyof Row & string>(param: P, middle: string, column: C): Field<Row, Params, string> {
      return {
        value: (row, params) => `${String(params[param])}${middle}${String(row[column])}`,
        sql: `@${identifier(param)} || ${sqlText(middle)} || ${identifier(column)}`,
        schema: () => z.url(),
      };
    },
  };
}

/** A resource's two forms, made from one field list. */
export interface ResourceShape<Row, Params, Resource> {
  /** The resource of one row, as reads by id and creations answer with it. */
  build(row: Row, params: Params): Resource;
  /** The SQL expression giving a row's resource as JSON text, member for member what `build` makes. */
  readonly sqlJson: string;
  /** The schema of the JSON both forms make: no member more or less (the OpenAPI document's). Built on first use. */
  readonly schema: z.ZodLazy<z.ZodObject<{ [K in keyof Resource]: z.ZodType<Resource[K]> }, z.core.$strict>>;
}

/**
 * The two forms of the resource `fields` lists. Members keep the list's
 * order in both: `JSON.stringify` keeps an object's insertion order, and
 * `json_object` the order of its arguments.
 */
export function resourceShape<Row, Params, Fields extends Record<string, Field<Row, Params, unknown>>>(
  fields: Fields,
): ResourceShape<Row, Params, { [K in keyof Fields]: ReturnType<Fields[K]["value"]> }> {
  const entries = Object.entries(fields);
  for (const [name] of entries) {
    // In an object literal this name would set the prototype rather than make a member.
    if (identifier(name) === "__proto__") throw new Error("__proto__ cannot be a member of a resource");
  }
  const sqlJson = `json_object(${entries.map(([name, field]) => `${sqlText(name)}, ${field.sql}`).join(", ")})`;
  // Every read and every change builds a resource: one object literal compiled for the list's
  // members makes it as a hand-written literal would, where adding the members one by one in a
  // loop cost noticeably more. Member names are plain identifiers (checked above).
  const values = entries.map(([, field]) => field.value);
  const literal = entries.map(([name], i) => `${name}: values[${i}](row, params)`).join(", ");
  const build = new Function("values", `return (row, params) => ({ ${literal} });`)(values) as (
    row: Row,
    params: Params,
  ) => { [K in keyof Fields]: ReturnType<Fields[K]["value"]> };
  const schema = z.lazy(() => z.strictObject(Object.fromEntries(entries.map(([name, field]) => [name, field.schema()])))) as ResourceShape<
    Row,
    Params,
    { [K in keyof Fields]: ReturnType<Fields[K]["value"]> }
  >["schema"];
  return { build, sqlJson, schema };
}

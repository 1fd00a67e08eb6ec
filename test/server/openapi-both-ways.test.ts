// The OpenAPI document says exactly what the server checks, proved both ways for every operation
// it lists (a new operation is covered by being in the document):
// (1) requests made from the document's own schemas (its examples, and samples drawn from the
//     schemas of bodies and query parameters) are accepted: never a 400 that names a field;
// (2) a request that breaks one documented constraint (enum, pattern, minimum/maximum,
//     minLength/maxLength, minItems/maxItems, required, type, additionalProperties: false, format)
//     is refused with 400 invalid_request naming that field as `param`.
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { holdsCardNumber } from "../../src/domain/masking.js";
import { startTestPaysimApp, type ApiResponse, type TestPaysim } from "../helpers/paysim.js";

// ajv-formats is CommonJS: its default export is the module object under NodeNext.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

type Schema = Record<string, any>;
type Path = (string | number)[];

interface DocumentedOperation {
  operationId: string;
  method: string;
  template: string;
  /** The body's schema (a `$ref`), if the operation takes one. */
  body?: Schema;
  bodyRequired: boolean;
  query: { name: string; required: boolean; schema: Schema }[];
  idempotencyKey?: { required: boolean };
  example?: { body?: unknown; answer?: unknown };
  successStatuses: string[];
}

/** Samples drawn per operation, besides its example. */
const SAMPLES = 8;
const SEED = 20250101;

/** Real waits stay short here: a longer timeout_ms only makes the same answer later. */
const SHORT_WAIT_MS = 20;

let paysim: TestPaysim;
let document: any;
let ajv: Ajv2020;
const validators = new Map<string, ValidateFunction>();
const startedInstances = new Set<string>();
let keyCounter = 0;

const resolve = (schema: Schema): Schema => {
  if (schema.$ref === undefined) return schema;
  const name = (schema.$ref as string).split("/").pop()!;
  return resolve(document.components.schemas[name]);
};

/** The document's check of one schema, whole (its if/then and cross-field rules included). */
function validatorOf(schema: Schema): ValidateFunction {
  const key = JSON.stringify(schema);
  let validate = validators.get(key);
  if (!validate) {
    validate = ajv.compile({ $ref: `paysim-openapi#/components/schemas/${schema.$ref.split("/").pop()}` });
    validators.set(key, validate);
  }
  return validate;
}

function operationsOf(doc: any): DocumentedOperation[] {
  const operations: DocumentedOperation[] = [];
  for (const [template, item] of Object.entries<Record<string, any>>(doc.paths)) {
    for (const [method, operation] of Object.entries<any>(item)) {
      const parameters = (operation.parameters ?? []).map((parameter: Schema) =>
        parameter.$ref ? doc.components.parameters[parameter.$ref.split("/").pop()] : parameter,
      );
      const json = operation.requestBody?.content["application/json"];
      const successStatuses = Object.keys(operation.responses).filter((status) => status.startsWith("2"));
      operations.push({
        operationId: operation.operationId,
        method: method.toUpperCase(),
        template,
        body: json?.schema,
        bodyRequired: operation.requestBody?.required === true,
        query: parameters.filter((parameter: Schema) => parameter.in === "query"),
        idempotencyKey: parameters.find((parameter: Schema) => parameter.name === "Idempotency-Key"),
        example: { body: json?.example, answer: operation.responses[successStatuses[0]!]?.content?.["application/json"]?.example },
        successStatuses,
      });
    }
  }
  return operations;
}

// ---------------------------------------------------------------------------------------------
// Rules the document states in words (a description), as no JSON Schema keyword can: samples
// breaking them are left out, each rule found by the words the document uses for it.

const WORDED_RULES: { words: string; holds: (value: unknown) => boolean }[] = [
  { words: "holds no card number", holds: (value) => typeof value !== "string" || !holdsCardNumber(value) },
  { words: "min not above max", holds: (value) => !Array.isArray(value) || value[0] <= value[1] },
  {
    words: "each setting at most once",
    holds: (value) => {
      if (typeof value !== "string") return true;
      const settings = value.split(",").map((part) => part.trim().split("="));
      const names = settings.map(([name]) => name);
      const delay = settings
        .find(([name]) => name === "delay")?.[1]
        ?.split("-")
        .map(Number);
      return new Set(names).size === names.length && (delay === undefined || delay.length === 1 || delay[0]! <= delay[1]!);
    },
  },
];

/** Whether every string of `value` is well-formed Unicode (JSON text from any UTF-8 encoder is) and every worded rule holds. */
function keepsWordedRules(schema: Schema, value: unknown): boolean {
  if (typeof value === "string" && !(value as string & { isWellFormed(): boolean }).isWellFormed()) return false;
  const resolved = resolve(schema);
  const description = String(resolved.description ?? "");
  if (!WORDED_RULES.every((rule) => !description.includes(rule.words) || rule.holds(value))) return false;
  for (const branch of resolved.anyOf ?? []) if (!keepsWordedRules(branch, value)) return false;
  if (Array.isArray(value)) return value.every((item) => resolved.items === undefined || keepsWordedRules(resolved.items, item));
  if (value !== null && typeof value === "object") {
    return Object.entries(value).every(([name, member]) => resolved.properties?.[name] === undefined || keepsWordedRules(resolved.properties[name], member));
  }
  return true;
}

// ---------------------------------------------------------------------------------------------
// Values drawn from a schema: the subset of JSON Schema the document uses. Cross-field rules
// (allOf of if/then) are not drawn: samples that break them are filtered out by the document's check.

function arbitraryOf(schema: Schema): fc.Arbitrary<unknown> {
  const s = resolve(schema);
  if (s.enum) return fc.constantFrom(...s.enum);
  if (s.anyOf) return fc.oneof(...s.anyOf.map(arbitraryOf));
  if (Array.isArray(s.type)) return fc.oneof(...s.type.map((type: string) => arbitraryOf({ ...s, type })));
  switch (s.type) {
    case "null":
      return fc.constant(null);
    case "boolean":
      return fc.boolean();
    case "integer": {
      const min = Math.max(s.minimum ?? -1e6, Number.MIN_SAFE_INTEGER);
      const max = Math.min(s.maximum ?? 1e6, Number.MAX_SAFE_INTEGER);
      return fc.oneof(fc.constantFrom(min, max), fc.integer({ min, max }));
    }
    case "number": {
      const min = s.exclusiveMinimum ?? s.minimum ?? -1e6;
      const max = s.maximum ?? 1e6;
      const inner = fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
      return fc.oneof(fc.constantFrom(max), inner).filter((value) => s.exclusiveMinimum === undefined || value > s.exclusiveMinimum);
    }
    case "string": {
      const minLength = s.minLength ?? 0;
      const maxLength = s.maxLength ?? 40;
      const pattern = s.pattern === undefined ? undefined : new RegExp(s.pattern);
      const base = pattern
        ? fc.stringMatching(new RegExp(withoutLookaheads(s.pattern)))
        : fc.string({ minLength, maxLength: Math.min(maxLength, 40), unit: "grapheme" });
      return base.filter((value) => value.length >= minLength && value.length <= maxLength && (pattern === undefined || pattern.test(value)));
    }
    case "array": {
      const minLength = s.minItems ?? 0;
      return fc.array(arbitraryOf(s.items), { minLength, maxLength: Math.min(s.maxItems ?? minLength + 3, minLength + 3) });
    }
    case "object": {
      const properties = Object.entries<Schema>(s.properties ?? {});
      const record = Object.fromEntries(properties.map(([name, property]) => [name, arbitraryOf(property)]));
      return fc.record(record, { requiredKeys: s.required ?? [] });
    }
    default:
      throw new Error(`No sample of the schema ${JSON.stringify(s).slice(0, 200)}: teach arbitraryOf this construct.`);
  }
}

/** `pattern` without its lookaheads (fast-check draws no string for them): the draws are then filtered by the whole pattern. */
function withoutLookaheads(pattern: string): string {
  let out = "";
  for (let i = 0; i < pattern.length; i++) {
    if (pattern[i] === "\\") {
      out += pattern.slice(i, i + 2);
      i += 1;
    } else if (pattern.startsWith("(?!", i) || pattern.startsWith("(?=", i)) {
      let depth = 0;
      let inClass = false;
      for (; i < pattern.length; i++) {
        const c = pattern[i];
        if (c === "\\") i += 1;
        else if (inClass) inClass = c !== "]";
        else if (c === "[") inClass = true;
        else if (c === "(") depth += 1;
        else if (c === ")" && --depth === 0) break;
      }
    } else out += pattern[i];
  }
  return out;
}

/** `count` bodies the document's own check accepts and that keep its worded rules. */
function sampleBodies(schema: Schema, count: number): unknown[] {
  const validate = validatorOf(schema);
  const arbitrary = arbitraryOf(schema).filter((body) => validate(body) && keepsWordedRules(schema, body));
  return fc.sample(arbitrary, { numRuns: count, seed: SEED });
}

/** One query string per sample: each optional parameter present about half the time. */
function sampleQueries(operation: DocumentedOperation, count: number): Record<string, string>[] {
  if (operation.query.length === 0) return Array.from({ length: count }, () => ({}));
  const parameters = Object.fromEntries(
    operation.query.map((parameter) => [parameter.name, arbitraryOf(parameter.schema).filter((value) => keepsWordedRules(parameter.schema, value))]),
  );
  const required = operation.query.filter((parameter) => parameter.required).map((parameter) => parameter.name);
  return fc
    .sample(fc.record(parameters, { requiredKeys: required }), { numRuns: count, seed: SEED })
    .map((query) =>
      Object.fromEntries(
        Object.entries(query).map(([name, value]) => [name, name === "timeout_ms" ? String(Math.min(Number(value), SHORT_WAIT_MS)) : String(value)]),
      ),
    );
}

// ---------------------------------------------------------------------------------------------
// Calls.

/** Real objects for path ids, made fresh for each operation (a reset or a move may have used the last ones). */
async function freshIds(): Promise<Record<string, string>> {
  const created = async (path: string, body: unknown) => {
    const response = await call("POST", path, { body, idempotencyKey: true });
    expect(response.status, response.text).toBeLessThan(300);
    return response.body.id as string;
  };
  const intent = await created("/v1/payment_intents", { amount: 4200 });
  const payout = await created("/v1/payouts", { amount: 5000, currency: "EUR", destination_type: "card", destination_token: "tok_card_visa" });
  const endpoint = await created("/v1/webhook_endpoints", { url: "http://127.0.0.1:9/webhooks" });
  const fault = await created("/v1/sandbox/faults", { fault: "server_error", match: { method: "DELETE", path: "/v1/never/called" } });
  const events = await call("GET", "/v1/events?limit=1");
  return {
    payment_intents: intent,
    payouts: payout,
    events: events.body.data[0].id,
    webhook_endpoints: endpoint,
    faults: fault,
    instances: "ins_000000000000000000000000",
  };
}

/** The path of `template` with real ids (a made-up one for deletions, which would take the fixtures away). */
function pathOf(operation: DocumentedOperation, ids: Record<string, string>): string {
  return operation.template.replace(/([a-z_]+)\/\{id\}/, (_, collection: string) => {
    const id = operation.method === "DELETE" ? `${collection}_made_up_id` : ids[collection];
    if (id === undefined) throw new Error(`${operation.operationId}: no object for the path ${operation.template}; add one to freshIds.`);
    return `${collection}/${id}`;
  });
}

async function call(
  method: string,
  path: string,
  request: { body?: unknown; query?: Record<string, string>; idempotencyKey?: boolean | string } = {},
): Promise<ApiResponse> {
  const query = new URLSearchParams(request.query ?? {}).toString();
  const idempotencyKey = request.idempotencyKey === true ? `both-ways-${++keyCounter}` : request.idempotencyKey || undefined;
  const response = await paysim.api(method, query ? `${path}?${query}` : path, { body: request.body, idempotencyKey });
  if (response.status === 201 && typeof response.body?.id === "string" && response.body.id.startsWith("ins_")) startedInstances.add(response.body.id);
  return response;
}

/** Undoes what would change the answers of the calls after it: fault rules fault them, instances hold ports. */
async function tidyAfter(operation: DocumentedOperation): Promise<void> {
  if (operation.operationId === "addFaultRule") await call("DELETE", "/v1/sandbox/faults");
  for (const id of startedInstances) await call("DELETE", `/v1/sandbox/instances/${id}`);
  startedInstances.clear();
}

/**
 * Whether an answer accepts the request's shape: a success, or a refusal for the state of things
 * (no such object, a move its state does not allow: no `param`), or one that names a list's
 * `starting_after` of the right shape that is no object of that list (state, like a 404).
 */
function accepted(response: ApiResponse, query: Record<string, string>): boolean {
  if (response.status < 400) return true;
  const error = response.body?.error;
  if (error?.code !== "invalid_request") return response.status !== 400;
  if (error.param === undefined) return true;
  if (error.param === "starting_after") return query.starting_after !== undefined && error.message.endsWith("is not.");
  // A partial reversal's amount is held below the payout's own amount, which the document cannot know.
  return error.param === "amount" && error.message.includes("less than the payout amount");
}

/**
 * Whether `param` names the field at `path`: itself, or the top-level field holding it when the
 * message names the rest (an instance's chaos and forward_to are checked as the start options are).
 */
function namesField(error: { param?: string; message: string } | undefined, path: Path): boolean {
  if (error?.param === path.join(".")) return true;
  const leaf = path.at(-1)!;
  return error?.param === String(path[0]) && (typeof leaf === "number" || error.message.includes(String(leaf)));
}

// ---------------------------------------------------------------------------------------------
// Breaking one constraint.

interface Break {
  keyword: string;
  /** Where the value sits in the body, or the query parameter's or header's name. */
  path: Path;
  /** The broken request body, from a valid one. */
  apply(body: unknown): unknown;
}

const getAt = (value: any, path: Path): unknown => path.reduce((at, part) => (at === undefined || at === null ? undefined : at[part]), value);
function setAt(value: unknown, path: Path, replacement: unknown, remove = false): unknown {
  const copy = structuredClone(value) as any;
  let at = copy;
  for (const part of path.slice(0, -1)) at = at[part];
  if (remove) delete at[path.at(-1)!];
  else at[path.at(-1)!] = replacement;
  return copy;
}

/** Every field of `schema` that lists its values (`enum`), with its path: array items as index 0. */
function enumFields(schema: Schema, path: Path = []): { path: Path; values: unknown[] }[] {
  const at = resolve(schema);
  const found: { path: Path; values: unknown[] }[] = Array.isArray(at.enum) ? [{ path, values: at.enum }] : [];
  for (const [name, inner] of Object.entries((at.properties ?? {}) as Record<string, Schema>)) found.push(...enumFields(inner, [...path, name]));
  if (at.items && typeof at.items === "object") found.push(...enumFields(at.items as Schema, [...path, 0]));
  return found;
}

const TYPE_BREAKERS: [string, unknown][] = [
  ["number", 12345],
  ["string", "a string"],
  ["boolean", true],
  ["array", ["x"]],
  ["object", { a: 1 }],
  ["null", null],
];

/** A value of none of the JSON types `schema` allows. */
function wrongType(schema: Schema): unknown {
  const s = resolve(schema);
  const branches: Schema[] = s.anyOf ? s.anyOf.map(resolve) : [s];
  const allowed = new Set(
    branches
      .flatMap((branch) =>
        Array.isArray(branch.type) ? branch.type : branch.enum ? branch.enum.map((v: unknown) => (v === null ? "null" : typeof v)) : [branch.type],
      )
      .map((type: string) => (type === "integer" ? "number" : type)),
  );
  return TYPE_BREAKERS.find(([type]) => !allowed.has(type))![1];
}

/** A string that fails `pattern` but keeps the length bounds. */
function notMatching(s: Schema): string {
  const pattern = new RegExp(s.pattern);
  const candidates = ["!", " ", "x", "é", "not matching", "zz_not_an_id", "?".repeat(Math.max(1, s.minLength ?? 1))];
  return candidates.find((candidate) => !pattern.test(candidate) && candidate.length >= (s.minLength ?? 0) && candidate.length <= (s.maxLength ?? Infinity))!;
}

/** Every one-constraint break of the body schema, at each place a value may sit. */
function breaksOf(schema: Schema, path: Path = []): Break[] {
  const s = resolve(schema);
  const breaks: Break[] = [];
  const at = (keyword: string, replacement: (value: any) => unknown, where: Path = path): Break => ({
    keyword,
    path: where,
    apply: (body) => setAt(body, where, replacement(getAt(body, where))),
  });
  if (path.length > 0) {
    if (s.type !== undefined || s.anyOf !== undefined) breaks.push(at("type", () => wrongType(s)));
    if (s.enum) breaks.push(at("enum", () => (typeof s.enum[0] === "string" ? "zz_not_listed" : 987654321)));
    if (s.pattern && !s.enum) breaks.push(at("pattern", () => notMatching(s)));
    if (s.format === "uri") breaks.push(at("format", () => "not a uri"));
    if (s.minimum !== undefined) breaks.push(at("minimum", () => s.minimum - 1));
    if (s.exclusiveMinimum !== undefined) breaks.push(at("exclusiveMinimum", () => s.exclusiveMinimum));
    if (s.maximum !== undefined && s.maximum < Number.MAX_SAFE_INTEGER) breaks.push(at("maximum", () => s.maximum + 1));
    if (s.minLength) breaks.push(at("minLength", () => "x".repeat(s.minLength - 1)));
    // JSON Schema counts code points.
    if (s.maxLength !== undefined) breaks.push(at("maxLength", (value: string) => value + "a".repeat(s.maxLength + 1 - [...value].length)));
    if (s.minItems) breaks.push(at("minItems", (value: unknown[]) => value.slice(0, s.minItems - 1)));
    if (s.maxItems !== undefined)
      breaks.push(at("maxItems", (value: unknown[]) => [...value, ...Array.from({ length: s.maxItems + 1 - value.length }, () => value[0])]));
  }
  for (const branch of s.anyOf ?? []) {
    const inner = resolve(branch);
    if (inner.type === "object") breaks.push(...breaksOf(inner, path).filter((b) => b.path.length > path.length || b.keyword === "additionalProperties"));
  }
  if (s.type === "object") {
    for (const name of s.required ?? [])
      breaks.push({ keyword: "required", path: [...path, name], apply: (body) => setAt(body, [...path, name], undefined, true) });
    if (s.additionalProperties === false) {
      breaks.push({ keyword: "additionalProperties", path: [...path, "unknown_field"], apply: (body) => setAt(body, [...path, "unknown_field"], 1) });
    }
    for (const [name, property] of Object.entries<Schema>(s.properties ?? {})) breaks.push(...breaksOf(property, [...path, name]));
  }
  if (s.type === "array" && s.items) breaks.push(...breaksOf(s.items, [...path, 0]).filter((b) => b.path.length > path.length));
  return breaks;
}

/** A valid body (the example or a sample) with a value at `path`'s parent, and at `path` itself unless it is to be added. */
function baseFor(bodies: unknown[], brk: Break): unknown {
  const needsValue = brk.keyword !== "additionalProperties";
  return bodies.find((body) => {
    const parent = getAt(body, brk.path.slice(0, -1));
    return parent !== null && typeof parent === "object" && (!needsValue || getAt(body, brk.path) !== undefined);
  });
}

/** Every one-constraint break of the query parameters (strings in a URL: a number's or a list's words are broken in text). */
function queryBreaks(operation: DocumentedOperation): { keyword: string; name: string; value: string }[] {
  const breaks: { keyword: string; name: string; value: string }[] = [];
  for (const { name, schema } of operation.query) {
    const s = resolve(schema);
    if (s.type === "integer") breaks.push({ keyword: "type", name, value: "1.5" }, { keyword: "type", name, value: "ten" });
    if (s.enum) breaks.push({ keyword: "enum", name, value: "zz_not_listed" });
    if (s.pattern) breaks.push({ keyword: "pattern", name, value: notMatching(s) });
    if (s.minimum !== undefined) breaks.push({ keyword: "minimum", name, value: String(s.minimum - 1) });
    if (s.maximum !== undefined) breaks.push({ keyword: "maximum", name, value: String(s.maximum + 1) });
    if (s.minLength) breaks.push({ keyword: "minLength", name, value: "x".repeat(s.minLength - 1) });
  }
  return breaks;
}

// ---------------------------------------------------------------------------------------------

beforeAll(async () => {
  paysim = await startTestPaysimApp({ payouts: "manual" });
  document = (await paysim.api("GET", "/v1/openapi.json", { key: null })).body;
  ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats(ajv);
  ajv.addSchema({ ...document, $id: "paysim-openapi" });
});

afterAll(async () => {
  for (const id of startedInstances) await paysim.api("DELETE", `/v1/sandbox/instances/${id}`);
  await paysim?.dispose();
});

describe("the OpenAPI document, both ways", () => {
  it("lists operations to prove it on, each with an example that its own schemas accept", async () => {
    const operations = operationsOf(document);
    expect(operations.length).toBeGreaterThan(25);
    for (const operation of operations) {
      expect(operation.example?.answer, `${operation.operationId} has no example answer`).toBeDefined();
      const status = operation.successStatuses[0]!;
      const pointer = `paysim-openapi#/paths/${operation.template.replaceAll("/", "~1")}/${operation.method.toLowerCase()}/responses/${status}/content/application~1json/schema`;
      const validateAnswer = ajv.getSchema(pointer)!;
      expect(validateAnswer(operation.example!.answer), `${operation.operationId}'s example answer: ${ajv.errorsText(validateAnswer.errors)}`).toBe(true);
      if (operation.body) {
        expect(operation.example?.body, `${operation.operationId} takes a body and has no example of one`).toBeDefined();
        const validate = validatorOf(operation.body);
        expect(validate(operation.example!.body), `${operation.operationId}'s example body: ${ajv.errorsText(validate.errors)}`).toBe(true);
      }
    }
  });

  it("(1) accepts the examples and requests drawn from the document's schemas, for every operation", async () => {
    const refused: string[] = [];
    let calls = 0;
    for (const operation of operationsOf(document)) {
      const ids = await freshIds();
      const path = pathOf(operation, ids);
      const bodies = operation.body
        ? [operation.example!.body, ...sampleBodies(operation.body, SAMPLES)]
        : Array.from({ length: SAMPLES + 1 }, () => undefined);
      const queries = [{}, ...sampleQueries(operation, SAMPLES)];
      for (const [i, body] of bodies.entries()) {
        const query = { ...queries[i] };
        // Half the list pages start after a real object of the list.
        if (query.starting_after !== undefined && i % 2 === 0)
          query.starting_after = (await call("GET", `${operation.template}?limit=1`)).body.data[0]?.id ?? query.starting_after;
        const response = await call(operation.method, path, { body, query, idempotencyKey: operation.idempotencyKey !== undefined });
        calls += 1;
        if (!accepted(response, query)) refused.push(`${operation.operationId} ${JSON.stringify({ body, query })} → ${response.status} ${response.text}`);
        await tidyAfter(operation);
      }
    }
    expect(refused).toEqual([]);
    expect(calls).toBeGreaterThan(250);
  });

  it("(1b) accepts every value an enum of the document lists, in each body and query field that has one", async () => {
    // Random samples can miss one listed value the server refuses (a currency the document lists
    // and the server does not know): each value is sent once, in a body the document accepts.
    const refused: string[] = [];
    let tried = 0;
    for (const operation of operationsOf(document)) {
      const ids = await freshIds();
      const path = pathOf(operation, ids);
      const key = operation.idempotencyKey !== undefined;
      if (operation.body) {
        const validate = validatorOf(operation.body);
        const bodies = [operation.example!.body, ...sampleBodies(operation.body, 40)];
        for (const field of enumFields(operation.body)) {
          for (const value of field.values) {
            const body = bodies
              .map((base) => (getAt(base, field.path.slice(0, -1)) === undefined && field.path.length > 1 ? undefined : setAt(base, field.path, value)))
              .find((candidate) => candidate !== undefined && validate(candidate));
            if (body === undefined) continue;
            tried += 1;
            const response = await call(operation.method, path, { body, idempotencyKey: key });
            if (!accepted(response, {}))
              refused.push(`${operation.operationId} ${field.path.join(".")}=${JSON.stringify(value)} → ${response.status} ${response.text}`);
            await tidyAfter(operation);
          }
        }
      }
      for (const parameter of operation.query) {
        for (const value of (resolve(parameter.schema).enum as unknown[] | undefined) ?? []) {
          tried += 1;
          const query = {
            [parameter.name]: String(value),
            ...(parameter.name === "timeout_ms" ? {} : operation.query.some((p) => p.name === "timeout_ms") ? { timeout_ms: String(SHORT_WAIT_MS) } : {}),
          };
          const response = await call(operation.method, path, { body: operation.example?.body, query, idempotencyKey: key });
          if (!accepted(response, query)) refused.push(`${operation.operationId} ?${parameter.name}=${String(value)} → ${response.status} ${response.text}`);
          await tidyAfter(operation);
        }
      }
    }
    expect(refused).toEqual([]);
    expect(tried).toBeGreaterThan(200);
  });

  it("(2) refuses a request that breaks any one documented constraint, naming the field", async () => {
    const wrong: string[] = [];
    const tried = new Set<string>();
    for (const operation of operationsOf(document)) {
      const ids = await freshIds();
      const path = pathOf(operation, ids);
      const send = async (what: string, field: Path, request: Parameters<typeof call>[2]) => {
        tried.add(what.split(" ")[1]!);
        const response = await call(operation.method, path, request);
        await tidyAfter(operation);
        if (response.status !== 400 || response.body?.error?.code !== "invalid_request" || !namesField(response.body.error, field)) {
          wrong.push(
            `${operation.operationId} ${what} (${JSON.stringify(request)}): expected 400 invalid_request with param ${field.join(".")}, got ${response.status} ${response.text}`,
          );
        }
      };
      const key = operation.idempotencyKey !== undefined;

      if (operation.body) {
        const validate = validatorOf(operation.body);
        const bodies = [operation.example!.body, ...sampleBodies(operation.body, 40)];
        for (const brk of breaksOf(operation.body)) {
          const base = baseFor(bodies, brk);
          if (base === undefined) {
            wrong.push(`${operation.operationId} ${brk.keyword} at ${brk.path.join(".")}: no valid body has a value there to break`);
            continue;
          }
          const broken = brk.apply(base);
          if (validate(broken)) {
            wrong.push(`${operation.operationId} ${brk.keyword} at ${brk.path.join(".")}: the broken body ${JSON.stringify(broken)} still passes the document`);
            continue;
          }
          await send(`body ${brk.keyword} at ${brk.path.join(".")}`, brk.path, { body: broken, idempotencyKey: key });
        }
      }
      for (const brk of queryBreaks(operation)) {
        await send(`query ${brk.keyword} of ${brk.name}`, [brk.name], { body: operation.example?.body, query: { [brk.name]: brk.value }, idempotencyKey: key });
      }
      if (operation.idempotencyKey) {
        await send("header pattern of Idempotency-Key", ["Idempotency-Key"], { body: operation.example?.body, idempotencyKey: "caf\u00e9" });
        if (operation.idempotencyKey.required) await send("header required of Idempotency-Key", ["Idempotency-Key"], { body: operation.example?.body });
      }
    }
    expect(wrong).toEqual([]);
    // Every kind of constraint the document uses was broken somewhere.
    expect([...tried].sort()).toEqual(
      [
        "additionalProperties",
        "enum",
        "exclusiveMinimum",
        "format",
        "maxItems",
        "maxLength",
        "maximum",
        "minItems",
        "minLength",
        "minimum",
        "pattern",
        "required",
        "type",
      ].sort(),
    );
  });
});

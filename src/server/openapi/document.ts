import * as z from "zod";
import type { ErrorCode } from "../../domain/errors.js";
import { currencySchema } from "../../domain/validation.js";
import { VERSION } from "../../version.js";
import { codesOfStatus, errorBodySchema, HTTP_STATUS } from "../errors.js";
import { KEY_SHAPE } from "../middleware/idempotency-key.js";
import { OPERATION_OWN_CODES, type OperationDoc } from "../operations/define.js";
import { namedSchemas } from "../operations/index.js";
import { OPENAPI_LICENSE } from "./document-operation.js";

/** A JSON value of the document (the OpenAPI 3.1 objects are plain JSON). */
type Json = Record<string, unknown>;

export interface OpenApiDocument {
  openapi: "3.1.0";
  info: Json;
  servers: { url: string }[];
  security: Json[];
  paths: Record<string, Record<string, Json>>;
  components: Json;
}

const SCHEMAS = "#/components/schemas/";
const RESPONSES = "#/components/responses/";
const SECURITY_SCHEME = "secretKey";

/** Headers some error statuses carry (docs/api.md and docs/faults.md). */
const ERROR_HEADERS: Partial<Record<number, Record<string, string>>> = {
  401: { "WWW-Authenticate": "`Bearer`: the key is missing, malformed or unknown." },
  429: { "Retry-After": "Seconds to wait before trying again." },
};

/** The codes an operation's features decide on; every other code (Host, a bug or a `server_error` fault) may answer any operation. */
function decidedCodes(operation: OperationDoc): Partial<Record<ErrorCode, boolean>> {
  const takesInput = operation.body !== undefined || operation.query !== undefined || operation.idempotencyKey !== undefined;
  const own = Object.fromEntries(OPERATION_OWN_CODES.map((code) => [code, operation.ownErrors?.includes(code) === true]));
  return {
    ...own,
    unauthorized: operation.noKey !== true,
    invalid_request: takesInput,
    payload_too_large: operation.body !== undefined,
    not_found: operation.path.includes("/:"),
    idempotency_conflict: operation.idempotencyKey !== undefined,
    method_not_allowed: false,
    // A fault rule (docs/faults.md) hits requests made with a key, never the sandbox controls.
    rate_limited: operation.noKey !== true && !operation.path.startsWith("/v1/sandbox/"),
  };
}

/** The error statuses `operation` may answer, in order. */
function errorStatuses(operation: OperationDoc): number[] {
  const decided = decidedCodes(operation);
  const codes = (Object.keys(HTTP_STATUS) as ErrorCode[]).filter((code) => decided[code] ?? true);
  return [...new Set(codes.map((code) => HTTP_STATUS[code]))].sort((a, b) => a - b);
}

/** The error statuses some operation of `operations` may answer, in order: each gets one component. */
const answeredErrorStatuses = (operations: readonly OperationDoc[]): number[] => [...new Set(operations.flatMap(errorStatuses))].sort((a, b) => a - b);

const pascal = (name: string) => name[0]!.toUpperCase() + name.slice(1);

/** `/v1/payouts/:id` → `/v1/payouts/{id}`, with the names of its parameters. */
function openApiPath(path: string): { path: string; names: string[] } {
  const names: string[] = [];
  const converted = path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_, name: string) => {
    names.push(name);
    return `{${name}}`;
  });
  return { path: converted, names };
}

/** JSON Schema 2020-12 of one schema, as it sits inside the document (no `$schema` of its own). */
function jsonSchemaOf(schema: z.ZodType, io: "input" | "output"): Json {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, target: "draft-2020-12" }) as Json;
  return rest;
}

/**
 * The schemas of a registry as components: zod writes each one, and refers to another component
 * of the same registry by `$ref` rather than repeating it.
 */
function componentsOf(registry: z.core.$ZodRegistry<{ id: string }>, io: "input" | "output"): Record<string, Json> {
  const { schemas } = z.toJSONSchema(registry, { io, target: "draft-2020-12", uri: (id) => `${SCHEMAS}${id}` });
  const components: Record<string, Json> = {};
  for (const [id, schema] of Object.entries(schemas)) {
    const { $schema: _dialect, $id: _id, ...rest } = schema as Json;
    components[id] = rest;
  }
  return components;
}

/** A registry that names each schema once, whatever number of operations use it. */
function namingRegistry() {
  const registry = z.registry<{ id: string }>();
  const names = new Map<z.ZodType, string>();
  return {
    registry,
    /** The component name of `schema`: the one it was first given. */
    name(schema: z.ZodType, wanted: string): string {
      const known = names.get(schema);
      if (known !== undefined) return known;
      registry.add(schema, { id: wanted });
      names.set(schema, wanted);
      return wanted;
    },
  };
}

/** paysim's licence, as package.json names it (an SPDX identifier). */

const isJsonObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * `value` written with the JSON Schema words every OpenAPI tool reads (docs/api.md, "The OpenAPI
 * document"): a `const` becomes a one-value `enum` (generated TypeScript clients fail to compile on
 * `const`), and a tuple whose members share one schema (`prefixItems`, which mock servers and test
 * generators stop on) becomes an array of that schema with its exact length. Both say the same.
 */
export function portable<T>(value: T): T {
  if (Array.isArray(value)) return value.map(portable) as T;
  if (!isJsonObject(value)) return value;
  const { const: literal, prefixItems, ...rest } = value;
  // An example is data the schema describes, not a schema: left as written.
  const out: Json = Object.fromEntries(Object.entries(rest).map(([key, member]) => [key, key === "example" ? member : portable(member)]));
  if ("const" in value) out.enum = [literal];
  if (Array.isArray(prefixItems)) {
    const [first, ...others] = prefixItems.map(portable);
    if (others.some((item) => JSON.stringify(item) !== JSON.stringify(first)) || value.items !== false) {
      throw new Error("The OpenAPI document has a tuple of different members, which it cannot write portably.");
    }
    Object.assign(out, { items: first, minItems: prefixItems.length, maxItems: prefixItems.length });
  }
  return out as T;
}

const ref = (name: string) => ({ $ref: `${SCHEMAS}${name}` });
const requestIdHeader = { "Request-Id": { description: "This request's id (`req_…`).", required: true, schema: { type: "string" } } };

/** The `Idempotency-Key` request header: required on the creations, optional on the moves (docs/api.md). */
function idempotencyKeyHeader(required: boolean): Json {
  return {
    name: "Idempotency-Key",
    in: "header",
    required,
    description: "A retry with the same key and body within 24 hours gets the first answer again, and nothing is done twice.",
    schema: { type: "string", pattern: KEY_SHAPE.source },
  };
}

/** What a replay's answer adds, in words (see where it is used). */
const REPLAYED_HEADER =
  "The stored answer of an earlier request with the same Idempotency-Key and body carries the header `Idempotent-Replayed: true`; a first answer has no such header.";

/**
 * The OpenAPI 3.1 document of `operations` (docs/api.md), made from the zod schemas the routes
 * validate with and answer from: request bodies and parameters as zod reads input, answers as
 * it writes output, each of `named` (the resources' schemas) as the component of that name. `servers` is left empty for the caller: the base URL is the instance's own.
 */
export function openApiDocument(operations: readonly OperationDoc[], named: readonly (readonly [string, z.ZodType])[] = namedSchemas([])): OpenApiDocument {
  const output = namingRegistry();
  const input = namingRegistry();
  // The resources, named as components (operations/index.ts): every other schema still gets a component, named after its operation.
  for (const [name, schema] of named) output.name(schema, name);
  // Some 150 codes: written once, referred to by every body that takes a currency.
  input.name(currencySchema, "Currency");
  // A 405 answers a method no operation has, so no operation lists it: it gets no component.
  const errorStatusesAnswered = answeredErrorStatuses(operations);
  for (const status of errorStatusesAnswered) output.name(errorBodySchema(codesOfStatus(status)), `Error${status}`);

  const paths: OpenApiDocument["paths"] = {};
  for (const operation of operations) {
    const { path, names } = openApiPath(operation.path);
    const parameters: Json[] = names.map((name) => ({ name, in: "path", required: true, schema: { type: "string" } }));
    if (operation.query) {
      const query = jsonSchemaOf(operation.query, "input") as { properties?: Record<string, Json>; required?: string[] };
      for (const [name, schema] of Object.entries(query.properties ?? {})) {
        const { description, ...rest } = schema;
        parameters.push({
          name,
          in: "query",
          required: query.required?.includes(name) ?? false,
          ...(description === undefined ? {} : { description }),
          schema: rest,
        });
      }
    }
    // Written out in each operation rather than as a $ref to components: generators that make a
    // function argument of each header parameter (orval) then give the key one.
    if (operation.idempotencyKey) parameters.push(idempotencyKeyHeader(operation.idempotencyKey === "required"));

    const responses: Json = {};
    for (const [status, schema] of Object.entries(operation.answers)) {
      const name = output.name(schema, `${pascal(operation.operationId)}Answer`);
      // `Idempotent-Replayed` is said in words, not declared: mock servers (Prism, Mockoon) send
      // every declared header, and a mocked creation would then claim to be a replay.
      const description = operation.idempotencyKey ? `${operation.summary}. ${REPLAYED_HEADER}` : operation.summary;
      const example = operation.example === undefined ? {} : { example: operation.example.answer };
      responses[status] = { description, headers: requestIdHeader, content: { "application/json": { schema: ref(name), ...example } } };
    }
    for (const status of errorStatuses(operation)) responses[String(status)] = { $ref: `${RESPONSES}Error${status}` };

    const entry: Json = { operationId: operation.operationId, summary: operation.summary };
    if (operation.noKey) entry.security = [];
    if (parameters.length > 0) entry.parameters = parameters;
    if (operation.body) {
      entry.requestBody = {
        required: !operation.body.safeParse({}).success,
        content: {
          "application/json": {
            schema: ref(input.name(operation.body, `${pascal(operation.operationId)}Body`)),
            ...(operation.example?.body === undefined ? {} : { example: operation.example.body }),
          },
        },
      };
    }
    entry.responses = responses;
    (paths[path] ??= {})[operation.method] = entry;
  }

  const errorResponses: Record<string, Json> = {};
  for (const status of errorStatusesAnswered) {
    const extra = Object.fromEntries(
      Object.entries(ERROR_HEADERS[status] ?? {}).map(([header, description]) => [header, { description, schema: { type: "string" } }]),
    );
    errorResponses[`Error${status}`] = {
      description: `The error body, with the code ${codesOfStatus(status)
        .map((code) => `\`${code}\``)
        .join(" or ")}.`,
      headers: { ...requestIdHeader, ...extra },
      content: { "application/json": { schema: ref(`Error${status}`) } },
    };
  }

  return portable({
    openapi: "3.1.0",
    info: {
      title: "paysim",
      version: VERSION,
      description: "The /v1 API of a paysim instance: a local sandbox of a payment collection and payout service.",
      license: OPENAPI_LICENSE,
    },
    servers: [],
    security: [{ [SECURITY_SCHEME]: [] }],
    paths,
    components: {
      securitySchemes: {
        [SECURITY_SCHEME]: { type: "http", scheme: "bearer", description: "A secret key `sk_test_…` as `paysim start` prints it." },
      },
      responses: errorResponses,
      schemas: { ...componentsOf(output.registry, "output"), ...componentsOf(input.registry, "input") },
    },
  });
}

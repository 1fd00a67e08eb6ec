import * as z from "zod";
import { withRequestIdSchema } from "../../domain/answer-schemas.js";
import type { ErrorCode } from "../../domain/errors.js";
import { eventSchema } from "../../services/events.js";
import { webhookEndpointSchema } from "../../services/webhook-endpoints.js";
import { PAYMENT_INTENT_SHAPE } from "../../store/repos/payment-intents.js";
import { PAYOUT_SHAPE } from "../../store/repos/payouts.js";
import { VERSION } from "../../version.js";
import { deliveryAttemptSchema, deliverySchema } from "../../webhooks/deliveries-view.js";
import { codesOfStatus, errorBodySchema, HTTP_STATUS } from "../errors.js";
import { KEY_SHAPE } from "../middleware/idempotency-key.js";
import { OPERATION_OWN_CODES, type MountedOperation } from "./operation.js";

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

/**
 * The resources, named as components: a schema that uses one of them (a list's items, an
 * answer nesting it) refers to it by name. Every other schema still gets a component, named
 * after its operation; a resource missing here is described all the same.
 */
const NAMED_RESOURCES: readonly [string, z.ZodType][] = [
  ["PaymentIntent", PAYMENT_INTENT_SHAPE.schema],
  ["PaymentIntentAnswer", withRequestIdSchema(PAYMENT_INTENT_SHAPE.schema)],
  ["Payout", PAYOUT_SHAPE.schema],
  ["PayoutAnswer", withRequestIdSchema(PAYOUT_SHAPE.schema)],
  ["Event", eventSchema],
  ["Delivery", deliverySchema],
  ["DeliveryAttempt", deliveryAttemptSchema],
  ["WebhookEndpoint", webhookEndpointSchema],
  ["WebhookEndpointAnswer", withRequestIdSchema(webhookEndpointSchema)],
];

/** Headers some error statuses carry (docs/api.md and docs/faults.md). */
const ERROR_HEADERS: Partial<Record<number, Record<string, string>>> = {
  401: { "WWW-Authenticate": "`Bearer`: the key is missing, malformed or unknown." },
  405: { Allow: "The methods the path does answer." },
  429: { "Retry-After": "Seconds to wait before trying again." },
};

/** The codes an operation's features decide on; every other code (Host, a bug or a `server_error` fault) may answer any operation. */
function decidedCodes(operation: MountedOperation): Partial<Record<ErrorCode, boolean>> {
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
function errorStatuses(operation: MountedOperation): number[] {
  const decided = decidedCodes(operation);
  const codes = (Object.keys(HTTP_STATUS) as ErrorCode[]).filter((code) => decided[code] ?? true);
  return [...new Set(codes.map((code) => HTTP_STATUS[code]))].sort((a, b) => a - b);
}

/** Every status some error code answers with, in order. */
const allErrorStatuses = (): number[] => [...new Set(Object.values(HTTP_STATUS))].sort((a, b) => a - b);

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

const ref = (name: string) => ({ $ref: `${SCHEMAS}${name}` });
const requestIdHeader = { "Request-Id": { description: "This request's id (`req_…`).", required: true, schema: { type: "string" } } };

/**
 * The OpenAPI 3.1 document of `operations` (docs/api.md), made from the zod schemas the routes
 * validate with and answer from: request bodies and parameters as zod reads input, answers as
 * it writes output. `servers` is left empty for the caller: the base URL is the instance's own.
 */
export function openApiDocument(operations: readonly MountedOperation[]): OpenApiDocument {
  const output = namingRegistry();
  const input = namingRegistry();
  for (const [name, schema] of NAMED_RESOURCES) output.name(schema, name);
  for (const status of allErrorStatuses()) output.name(errorBodySchema(codesOfStatus(status)), `Error${status}`);

  const paths: OpenApiDocument["paths"] = {};
  for (const operation of operations) {
    const { path, names } = openApiPath(operation.path);
    const parameters: Json[] = names.map((name) => ({ name, in: "path", required: true, schema: { type: "string" } }));
    if (operation.query) {
      const query = jsonSchemaOf(operation.query, "input") as { properties?: Record<string, Json>; required?: string[] };
      for (const [name, schema] of Object.entries(query.properties ?? {})) {
        const { description, ...rest } = schema;
        parameters.push({ name, in: "query", required: query.required?.includes(name) ?? false, ...(description === undefined ? {} : { description }), schema: rest });
      }
    }
    if (operation.idempotencyKey) parameters.push({ $ref: `#/components/parameters/IdempotencyKey${operation.idempotencyKey === "required" ? "" : "Optional"}` });

    const responses: Json = {};
    for (const [status, schema] of Object.entries(operation.answers)) {
      const name = output.name(schema, `${pascal(operation.operationId)}Answer`);
      const headers = operation.idempotencyKey
        ? { ...requestIdHeader, "Idempotent-Replayed": { description: "`true` when this is the stored answer of an earlier request with the same key.", schema: { type: "string", const: "true" } } }
        : requestIdHeader;
      const example = operation.example === undefined ? {} : { example: operation.example.answer };
      responses[status] = { description: operation.summary, headers, content: { "application/json": { schema: ref(name), ...example } } };
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
  for (const status of allErrorStatuses()) {
    const extra = Object.fromEntries(Object.entries(ERROR_HEADERS[status] ?? {}).map(([header, description]) => [header, { description, schema: { type: "string" } }]));
    errorResponses[`Error${status}`] = {
      description: `The error body, with the code ${codesOfStatus(status).map((code) => `\`${code}\``).join(" or ")}.`,
      headers: { ...requestIdHeader, ...extra },
      content: { "application/json": { schema: ref(`Error${status}`) } },
    };
  }

  const keyHeader = (required: boolean): Json => ({
    name: "Idempotency-Key",
    in: "header",
    required,
    description: "A retry with the same key and body within 24 hours gets the first answer again, and nothing is done twice.",
    schema: { type: "string", pattern: KEY_SHAPE.source },
  });

  return {
    openapi: "3.1.0",
    info: {
      title: "paysim",
      version: VERSION,
      description: "The /v1 API of a paysim instance: a local sandbox of a payment collection and payout service.",
    },
    servers: [],
    security: [{ [SECURITY_SCHEME]: [] }],
    paths,
    components: {
      securitySchemes: {
        [SECURITY_SCHEME]: { type: "http", scheme: "bearer", description: "A secret key `sk_test_…` as `paysim start` prints it." },
      },
      parameters: { IdempotencyKey: keyHeader(true), IdempotencyKeyOptional: keyHeader(false) },
      responses: errorResponses,
      schemas: { ...componentsOf(output.registry, "output"), ...componentsOf(input.registry, "input") },
    },
  };
}

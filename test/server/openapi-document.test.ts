import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";
import * as z from "zod";
import { openApiDocument } from "../../src/server/openapi/document.js";
import type { OperationDoc as Operation } from "../../src/server/operations/define.js";
import { usePaysim, usePaysimApp } from "../helpers/disposables.js";
import type { TestPaysim } from "../helpers/paysim.js";

const METHODS = ["get", "post", "delete", "put", "patch"];

/** The document as a client gets it: no key. */
async function fetchDocument(paysim: Pick<TestPaysim, "api">) {
  const response = await paysim.api("GET", "/v1/openapi.json", { key: null });
  expect(response.status, response.text).toBe(200);
  return response;
}

/** Every `METHOD path` the document describes, in Hono's path syntax. */
function documentedOperations(document: any): string[] {
  const operations: string[] = [];
  for (const [path, item] of Object.entries<Record<string, unknown>>(document.paths)) {
    for (const method of Object.keys(item).filter((key) => METHODS.includes(key))) {
      operations.push(`${method.toUpperCase()} ${path.replace(/\{([^}]+)\}/g, ":$1")}`);
    }
  }
  return operations.sort();
}

describe("GET /v1/openapi.json", () => {
  it("answers an OpenAPI 3.1 document that an independent validator accepts, without a key", async () => {
    const paysim = await usePaysimApp();
    const response = await fetchDocument(paysim);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(response.headers.get("request-id")).toMatch(/^req_/);
    expect(response.body.openapi).toBe("3.1.0");

    const validator = new Validator();
    const result = await validator.validate(response.body);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
  });

  it("names this instance's own base URL as its server, the one checkout_url starts with", async () => {
    const paysim = await usePaysim();
    const document = (await fetchDocument(paysim)).body;
    expect(document.servers).toEqual([{ url: paysim.url }]);
    const intent = await paysim.api("POST", "/v1/payment_intents", { body: { amount: 100 }, idempotencyKey: "openapi-servers" });
    expect(intent.body.checkout_url.startsWith(`${document.servers[0].url}/checkout/`)).toBe(true);
  });

  it("describes every /v1 route the app serves, and no other", async () => {
    const paysim = await usePaysimApp();
    const document = (await fetchDocument(paysim)).body;
    const served = [
      ...new Set(
        paysim.app.routes
          .filter((route) => route.path.startsWith("/v1/") && METHODS.includes(route.method.toLowerCase()))
          .map((route) => `${route.method} ${route.path}`),
      ),
    ].sort();
    expect(served.length).toBeGreaterThan(15);
    expect(documentedOperations(document)).toEqual(served);
  });

  it("asks for the bearer key on every operation but the document itself, and gives each a unique operationId", async () => {
    const paysim = await usePaysimApp();
    const document = (await fetchDocument(paysim)).body;
    expect(document.components.securitySchemes.secretKey).toMatchObject({ type: "http", scheme: "bearer" });
    expect(document.security).toEqual([{ secretKey: [] }]);
    const operations = Object.values<Record<string, any>>(document.paths).flatMap((item) => Object.values(item));
    expect(operations.filter((operation) => operation.security !== undefined).map((operation) => operation.operationId)).toEqual(["getOpenApiDocument"]);
    expect(document.paths["/v1/openapi.json"].get.security).toEqual([]);
    const ids = operations.map((operation) => operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const operation of operations.filter((operation) => operation.operationId !== "getOpenApiDocument")) {
      expect(operation.responses["401"], operation.operationId).toEqual({ $ref: "#/components/responses/Error401" });
    }
  });

  it("declares the Idempotency-Key header parameter in each operation (no $ref), required on creations, optional on moves", async () => {
    const paysim = await usePaysimApp();
    const document = (await fetchDocument(paysim)).body;
    const keyOf = (path: string, method = "post") =>
      document.paths[path][method].parameters?.find((parameter: any) => parameter.name === "Idempotency-Key" || parameter.$ref !== undefined);
    const header = (required: boolean) => ({
      name: "Idempotency-Key",
      in: "header",
      required,
      description: expect.any(String),
      schema: { type: "string", pattern: expect.any(String) },
    });
    for (const path of ["/v1/payment_intents", "/v1/payouts", "/v1/sandbox/instances"]) expect(keyOf(path), path).toEqual(header(true));
    for (const path of ["/v1/payment_intents/{id}/capture", "/v1/webhook_endpoints"]) expect(keyOf(path), path).toEqual(header(false));
    expect(keyOf("/v1/sandbox/clock/advance")).toBeUndefined();
    expect(document.components.parameters).toBeUndefined();
    expect(document.paths["/v1/payment_intents"].post.responses["409"]).toEqual({ $ref: "#/components/responses/Error409" });
  });

  it("says Idempotent-Replayed in words, never as a declared header a mock server would send on every creation", async () => {
    const paysim = await usePaysimApp();
    const document = (await fetchDocument(paysim)).body;
    for (const [path, item] of Object.entries(document.paths as Record<string, any>)) {
      for (const [method, operation] of Object.entries(item as Record<string, any>)) {
        for (const [status, response] of Object.entries(operation.responses as Record<string, any>)) {
          expect(Object.keys(response.headers ?? {}), `${method} ${path} ${status}`).not.toContain("Idempotent-Replayed");
        }
      }
    }
    expect(document.paths["/v1/payment_intents"].post.responses["201"].description).toContain("`Idempotent-Replayed: true`");
  });

  it("describes request bodies and queries from the schemas the routes validate with", async () => {
    const paysim = await usePaysimApp();
    const document = (await fetchDocument(paysim)).body;
    const create = document.paths["/v1/payment_intents"].post.requestBody;
    expect(create.required).toBe(true);
    const body = document.components.schemas[create.content["application/json"].schema.$ref.split("/").pop()];
    expect(body).toMatchObject({ type: "object", required: ["amount"], additionalProperties: false });
    expect(Object.keys(body.properties)).toEqual(["amount", "currency", "description", "capture_method"]);
    expect(body.properties.capture_method.enum).toEqual(["automatic", "manual"]);
    expect(body.properties.amount).toMatchObject({ type: "integer", minimum: 1, maximum: 999_999_999_999 });
    expect(document.paths["/v1/payment_intents/{id}/authorize"].post.requestBody.required).toBe(false);

    const list = document.paths["/v1/payouts"].get.parameters;
    expect(list.map((parameter: any) => [parameter.name, parameter.in, parameter.required])).toEqual([
      ["limit", "query", false],
      ["starting_after", "query", false],
      ["status", "query", false],
    ]);
    expect(list[0].schema).toMatchObject({ type: "integer", minimum: 1, maximum: 100 });
    expect(list[2].schema.enum).toContain("partially_reversed");
    expect(document.paths["/v1/payouts/{id}"].get.parameters).toEqual([{ name: "id", in: "path", required: true, schema: { type: "string" } }]);
  });

  it("answers with each resource's schema, the list envelope and the error body with every code", async () => {
    const paysim = await usePaysimApp();
    const { components, paths } = (await fetchDocument(paysim)).body;
    expect(Object.keys(components.schemas.PaymentIntent.properties)).toEqual([
      "id",
      "object",
      "reference",
      "amount",
      "currency",
      "description",
      "capture_method",
      "state",
      "card",
      "failure_reason",
      "checkout_url",
      "created_at",
      "updated_at",
    ]);
    const listAnswer = components.schemas[paths["/v1/payment_intents"].get.responses["200"].content["application/json"].schema.$ref.split("/").pop()];
    expect(listAnswer.properties.data.items).toEqual({ $ref: "#/components/schemas/PaymentIntent" });
    expect(listAnswer.required).toEqual(["object", "data", "has_more", "request_id"]);
    const codes = Object.keys(components.responses)
      .map((name) => components.schemas[name].properties.error.properties.code.enum)
      .flat()
      .sort();
    expect(codes).toEqual([
      "forbidden",
      "idempotency_conflict",
      "instance_limit",
      "internal_error",
      "invalid_request",
      // method_not_allowed (405) answers a method no operation has: no operation lists it.
      "nested_instance",
      "not_found",
      "payload_too_large",
      "rate_limited",
      "shutting_down",
      "unauthorized",
      "wait_timeout",
    ]);
    expect(components.responses.Error401.headers["WWW-Authenticate"]).toBeDefined();
  });
});

describe("the error answers an operation documents", () => {
  const answers = { 200: z.strictObject({ ok: z.boolean() }) };
  const body = z.strictObject({ name: z.string() });
  const cases: { name: string; operation: Omit<Operation, "operationId" | "summary" | "answers">; statuses: string[] }[] = [
    { name: "a read of the whole list", operation: { method: "get", path: "/v1/things" }, statuses: ["200", "401", "403", "429", "500"] },
    { name: "a read by id", operation: { method: "get", path: "/v1/things/:id" }, statuses: ["200", "401", "403", "404", "429", "500"] },
    {
      name: "a list with a query",
      operation: { method: "get", path: "/v1/things", query: z.strictObject({ limit: z.string().optional() }) },
      statuses: ["200", "400", "401", "403", "429", "500"],
    },
    { name: "a body", operation: { method: "post", path: "/v1/things", body }, statuses: ["200", "400", "401", "403", "413", "429", "500"] },
    {
      name: "a body and a key",
      operation: { method: "post", path: "/v1/things/:id/move", body, idempotencyKey: "optional" },
      statuses: ["200", "400", "401", "403", "404", "409", "413", "429", "500"],
    },
    { name: "no key needed", operation: { method: "get", path: "/v1/open", noKey: true }, statuses: ["200", "403", "500"] },
    { name: "a sandbox control (never faulted)", operation: { method: "get", path: "/v1/sandbox/things" }, statuses: ["200", "401", "403", "500"] },
    {
      name: "a wait (its timeout and its end when paysim stops)",
      operation: {
        method: "get",
        path: "/v1/sandbox/things/wait",
        query: z.strictObject({ timeout_ms: z.string().optional() }),
        ownErrors: ["wait_timeout", "shutting_down"],
      },
      statuses: ["200", "400", "401", "403", "408", "500", "503"],
    },
  ];

  it.each(cases)("follow from what it takes: $name", ({ operation, statuses }) => {
    const document = openApiDocument([{ ...operation, operationId: "thing", summary: "A thing", answers }]);
    const path = Object.keys(document.paths)[0]!;
    expect(Object.keys(document.paths[path]![operation.method]!.responses as object)).toEqual(statuses);
  });
});

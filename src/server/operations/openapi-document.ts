import * as z from "zod";
import { VERSION } from "../../version.js";
import type { OperationDoc } from "./define.js";

/** The license the document names (package.json's). */
export const OPENAPI_LICENSE = { name: "MIT", identifier: "MIT" } as const;

/** The document's own operation: the one /v1 call that needs no key (docs/api.md). */
export const OPENAPI_OPERATION: OperationDoc = {
  operationId: "getOpenApiDocument",
  method: "get",
  path: "/v1/openapi.json",
  summary: "This OpenAPI document",
  answers: { 200: z.lazy(() => z.looseObject({ openapi: z.literal("3.1.0") })) },
  noKey: true,
  example: { answer: { openapi: "3.1.0", info: { title: "paysim", version: VERSION, license: OPENAPI_LICENSE }, paths: {} } },
};

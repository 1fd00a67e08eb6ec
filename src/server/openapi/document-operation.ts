import * as z from "zod";
import { VERSION } from "../../version.js";
import type { OperationDoc } from "../operations/define.js";

/**
 * The definition of GET /v1/openapi.json, the OpenAPI document's own operation, beside the module
 * that builds the document (document.ts) and the one that answers it (route.ts). It is no
 * resource's operation: app.ts mounts it apart, without the key check, before the registry's.
 */

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

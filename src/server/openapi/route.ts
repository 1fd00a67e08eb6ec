import type { Context } from "hono";
import type * as z from "zod";
import { requestIdOf, type AppEnv } from "../env.js";
import { jsonResponse } from "../respond.js";
import { openApiDocument, type OpenApiDocument } from "./document.js";
import type { OperationDoc } from "../operations/define.js";

/**
 * `GET /v1/openapi.json` (docs/api.md): the document of `operations`, with this instance's base
 * URL as its server; `named` are the resources' schemas by their component names. It is made on the first call, once every route is in place: a run that never
 * asks for it pays nothing but loading its small module (loaded on demand, it split the code it
 * shares with the API into more files for every start to load, see html-routes.ts). The body has no
 * `request_id` member (an OpenAPI document has no room for one), the `Request-Id` header does.
 */
export function openApiRoute(operations: readonly OperationDoc[], named: readonly (readonly [string, z.ZodType])[], baseUrl: () => string) {
  let document: OpenApiDocument | undefined;
  return function openApiDocumentAnswer(c: Context<AppEnv>): Response {
    document ??= openApiDocument(operations, named);
    return jsonResponse(requestIdOf(c), JSON.stringify({ ...document, servers: [{ url: baseUrl() }] }));
  };
}

import type { Context } from "hono";
import { requestIdOf, type AppEnv } from "../env.js";
import { jsonResponse } from "../respond.js";
import type { OpenApiDocument } from "./document.js";
import type { OperationDoc } from "../operations/define.js";

/**
 * `GET /v1/openapi.json` (docs/api.md): the document of `operations`, with this instance's base
 * URL as its server. It is made on the first call, once every route is in place, and its code
 * is loaded then too: a run that never asks for it pays nothing for it. The body has no
 * `request_id` member (an OpenAPI document has no room for one), the `Request-Id` header does.
 */
export function openApiRoute(operations: readonly OperationDoc[], baseUrl: () => string) {
  let document: Promise<OpenApiDocument> | undefined;
  return async function openApiDocumentAnswer(c: Context<AppEnv>): Promise<Response> {
    document ??= import("./document.js").then(({ openApiDocument }) => openApiDocument(operations));
    return jsonResponse(requestIdOf(c), JSON.stringify({ ...(await document), servers: [{ url: baseUrl() }] }));
  };
}

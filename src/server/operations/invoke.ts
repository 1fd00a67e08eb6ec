import { maskRequestBody } from "../../domain/masking.js";
import type { Company } from "../../store/repos/companies.js";
import type { AppDeps } from "../env.js";
import type { ActionOperation, ChangeOperation } from "./define.js";
import { runOperation } from "./run.js";

/** Who makes a call from a page: the signed-in company, under the page request's id. */
export interface Caller {
  deps: AppDeps;
  company: Company;
  requestId: string;
}

/**
 * Makes `operation`'s call for a dashboard action, as the API would for the same body: the body
 * masked as the API masks a JSON body, then the same steps (run.ts) under the operation's own
 * path with `params` filled in, without an Idempotency-Key (a form post is not retried by a
 * client). Answers the resource; a refusal is thrown as the API's error.
 */
export async function invoke(
  operation: ChangeOperation<unknown, unknown, unknown> | ActionOperation<unknown, unknown, unknown>,
  caller: Caller,
  call: { params?: Record<string, string>; body?: Record<string, unknown> } = {},
): Promise<Record<string, unknown>> {
  const params = call.params ?? {};
  const path = operation.path.replace(/:([A-Za-z_]+)/g, (_, name: string) => encodeURIComponent(params[name] ?? ""));
  const outcome = await runOperation(operation, {
    ...caller,
    params,
    rawBody: operation.body ? maskRequestBody(call.body ?? {}) : undefined,
    query: undefined,
    path,
    idempotencyKey: undefined,
  });
  if ("answered" in outcome) return JSON.parse(outcome.answered.text) as Record<string, unknown>;
  if ("list" in outcome) throw new Error(`${operation.operationId} answers a list, which no dashboard action makes`);
  return outcome.resource as Record<string, unknown>;
}

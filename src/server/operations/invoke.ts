import { maskRequestBody } from "../../domain/masking.js";
import type { Company } from "../../resources/companies/store.js";
import type { AppDeps } from "../env.js";
import type { ActionOperation, ChangeOperation, Sends } from "./define.js";
import { runOperation } from "./run.js";

/** Who makes a call from a page: the signed-in company, under the page request's id. */
export interface Caller {
  deps: AppDeps;
  company: Company;
  requestId: string;
}

/** An operation a dashboard action can call: a change or an action (a held one answers its own connection). */
export type Invocable<S extends Sends = Sends> = ChangeOperation<unknown, unknown, unknown, S> | ActionOperation<unknown, unknown, unknown, S>;

/**
 * Makes `operation`'s call for a dashboard action, as the API would for the same body: the body
 * masked as the API masks a JSON body, then the same steps (run.ts) under the operation's own
 * path with `params` filled in, without an Idempotency-Key (a form post is not retried by a
 * client). Answers the resource, of the type its `answers` schema gives; a refusal is thrown as
 * the API's error.
 */
export async function invoke<S extends Sends>(
  operation: Invocable<S>,
  caller: Caller,
  call: { params?: Record<string, string>; body?: Record<string, unknown> } = {},
): Promise<S["resource"]> {
  const params = call.params ?? {};
  const path = operation.path.replace(/:([A-Za-z_]+)/g, (_, name: string) => encodeURIComponent(params[name] ?? ""));
  const outcome = await runOperation(operation, {
    ...caller,
    params,
    rawBody: operation.body ? maskRequestBody(call.body ?? {}, operation.credentials) : undefined,
    query: undefined,
    path,
    idempotencyKey: undefined,
  });
  // The operation's definition typed what it returned (define.ts); its stored text holds the same.
  if ("answered" in outcome) return JSON.parse(outcome.answered.text) as S["resource"];
  if ("list" in outcome) throw new Error(`${operation.operationId} answers a list, which no dashboard action makes`);
  return outcome.resource as S["resource"];
}

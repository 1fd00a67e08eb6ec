import type { Context } from "hono";
import type * as z from "zod";
import type { ErrorCode } from "../../domain/errors.js";
import type { CredentialFields } from "../../domain/masking.js";
import type { IdempotentAnswer, IdempotentRequest } from "../../services/idempotency.js";
import type { Work } from "../../services/unit-of-work.js";
import type { Company } from "../../resources/companies/store.js";
import type { AppDeps, AppEnv } from "../env.js";

/**
 * One operation of the /v1 API, defined once: its method and path, what it takes (body schema,
 * query schema, Idempotency-Key), what it does (one service call), what it answers, and an
 * example. Everything else comes from this definition: the Hono route (mount.ts), the dashboard's
 * action for it (invoke.ts), the OpenAPI entry (openapi/document.ts), the coverage catalogue,
 * and the CLI's types (its schemas live in src/contracts/).
 *
 * Every operation runs the same steps in the same order (docs/api.md, "Errors"): the body is
 * read and masked, the Idempotency-Key checked, an earlier answer under the key replayed, then the
 * object the call acts on found (404), then the body validated (400), then the call made.
 */
export interface OperationDoc {
  /** A name for the operation, unique in the API: generated clients call it by this name. */
  operationId: string;
  method: "get" | "post" | "delete";
  /** The whole path in Hono's syntax (`/v1/payouts/:id/transition`). */
  path: string;
  summary: string;
  /** The schema the JSON body is validated with; absent: the operation takes no body. A body is optional when `{}` passes it. */
  body?: z.ZodType;
  /**
   * The body's fields that hold a credential the caller chose, each with its format: kept exactly
   * as sent when it has that format, never digit-masked (docs/guarantees.md).
   */
  credentials?: CredentialFields;
  /** The strict object the query string is validated with; absent: the query is not read. */
  query?: z.ZodType;
  /** The Idempotency-Key header: required or optional; absent: not read. */
  idempotencyKey?: "required" | "optional";
  /** The success answers: HTTP status → the schema of the JSON sent. */
  answers: AnswerSchemas;
  /** True for the one operation that needs no key (the document itself). */
  noKey?: boolean;
  /** Error codes that only the operations naming them answer (OPERATION_OWN_CODES below). */
  ownErrors?: readonly ErrorCode[];
  /** An example request body (for an operation that takes one) and success answer, shown in the document. */
  example?: { body?: unknown; answer: unknown };
}

/** What every step of an operation knows of its call. */
export interface CallContext {
  deps: AppDeps;
  company: Company;
  requestId: string;
  /** The path's parameters (`id`). */
  params: Readonly<Record<string, string>>;
}

/** A call with its validated body and query, and the object it acts on (`target`). */
export interface Call<Body, Query, Target> extends CallContext {
  body: Body;
  query: Query;
  target: Target;
  /** The call as the idempotency layer sees it, for a service that runs it itself; only an operation that takes an Idempotency-Key has one. */
  request: IdempotentRequest | undefined;
}

/** The success answers of an operation: HTTP status → the schema of the JSON sent. */
export type AnswerSchemas = Partial<Record<200 | 201, z.ZodType>>;

/**
 * The JSON an operation's success answer carries, as its `answers` schema describes it: the
 * schema's output, what a client reading the answer with it gets (the CLI's types are the same).
 * Answer schemas transform nothing, so it is also what they accept; the resources' schemas
 * (store/resource-shape.ts) declare only their output.
 */
export type SentOf<Schemas extends AnswerSchemas> = z.output<NonNullable<Schemas[keyof Schemas]>>;

/** A page of a list given as JSON texts, each item already serialised. */
export interface ListAnswer {
  list: readonly string[];
  hasMore: boolean;
}

/**
 * What an operation may answer, as its `answers` schemas say: the resource it returns (and
 * `invoke()` answers), the statuses, and whether it answers a list page (`ListAnswer`, or `never`).
 */
export interface Sends {
  resource: object;
  status: 200 | 201;
  list: ListAnswer;
}

/**
 * What `answers` says an operation sends: the resource is the answer's JSON without the
 * `request_id` the response adds (respond.ts, and the idempotency layer); a list page only for an
 * answer that is a list envelope.
 */
export type SendsOf<Schemas extends AnswerSchemas> = {
  resource: SentOf<Schemas> extends object ? Omit<SentOf<Schemas>, "request_id"> : never;
  status: keyof Schemas & (200 | 201);
  list: SentOf<Schemas> extends { object: "list" } ? ListAnswer : never;
};

/**
 * A resource as a read or a change answers it, of the type its `answers` give. An event answers
 * with its own `request_id` (the request that caused it, `keepsRequestId`), so it returns the whole
 * answer, `request_id` included.
 */
type ResourceAnswer<S extends Sends> =
  { resource: S["resource"]; keepsRequestId?: false } | { resource: S["resource"] & { request_id: string }; keepsRequestId: true };

/** What a read or an action answers: one resource, a page of a list, or an idempotency answer the service made of its resource. */
export type Answer<S extends Sends = Sends> =
  (ResourceAnswer<S> & { status?: S["status"] }) | S["list"] | { idempotent: Promise<IdempotentAnswer<S["resource"]>> };

/** What a change answers: its status and resource, which the idempotency layer stores and sends. */
export type ChangeAnswer<S extends Sends = Sends> = ResourceAnswer<S> & { status: S["status"] };

/** The parts every kind of operation has. */
interface Defined<Body, Query, Target> extends OperationDoc {
  body?: z.ZodType<Body>;
  query?: z.ZodType<Query>;
  /** The object the call acts on, found before the body is validated: an unknown id is a 404 whatever the body. */
  target?: (call: CallContext) => Target;
}

/** A change: runs in one unit of work through the idempotency layer, so it is durable before it answers and done once per key. */
export interface ChangeOperation<Body = unknown, Query = unknown, Target = undefined, S extends Sends = Sends> extends Defined<Body, Query, Target> {
  change(call: Call<Body, Query, Target> & { work: Work }): ChangeAnswer<S>;
}

/** A read, or an action outside the idempotency layer (the clock, a reset, fault rules, instances). */
export interface ActionOperation<Body = unknown, Query = unknown, Target = undefined, S extends Sends = Sends> extends Defined<Body, Query, Target> {
  act(call: Call<Body, Query, Target>): Answer<S> | Promise<Answer<S>>;
  /**
   * For an action that takes a while (an instance's start): what a stopping paysim tells it while
   * it runs over HTTP. The stop then waits for its answer before the connections close, so the
   * client reads an answer (`503 shutting_down`) rather than a closed connection.
   */
  onStop?: (deps: AppDeps) => void;
}

/**
 * An operation that holds its HTTP request (the waits): it answers the connection itself, so it
 * has no dashboard action. `serve` gets the validated call and Hono's context.
 */
export interface HeldOperation<Body = unknown, Query = unknown, Target = undefined> extends Defined<Body, Query, Target> {
  held: true;
  act(call: Call<Body, Query, Target>, http: Context<AppEnv>): Promise<Response>;
}

export type Operation = ChangeOperation<unknown, unknown, unknown> | ActionOperation<unknown, unknown, unknown> | HeldOperation<unknown, unknown, unknown>;

/**
 * What a definition keeps in its type: its operationId, as the literal it is, and its answer
 * schemas, so a type can be read off it by that id (`AnswerOf`). They replace OperationDoc's wide
 * `operationId` and `answers` in the definition's type (`Omit`): intersected with them, an answer
 * would read as `unknown`.
 */
export interface Defines<Id extends string, Schemas extends AnswerSchemas> {
  operationId: Id;
  answers: Schemas;
}

/**
 * The JSON that operation `Id` answers with, read off its definition: `Ops` is one definition
 * (`AnswerOf<typeof resetSandbox>`) or a module's list of them (`AnswerOf<typeof EVENT_OPERATIONS,
 * "listEvents">`). The CLI takes the types of the answers it reads from here (cli/api-types.ts),
 * as types only.
 */
export type AnswerOf<Ops, Id extends string = string> =
  Extract<Ops extends readonly (infer Op)[] ? Op : Ops, { operationId: Id }> extends { answers: infer Schemas extends AnswerSchemas } ? SentOf<Schemas> : never;

/** The item type of a list answer (`{ object: "list", data: [...] }`). */
export type ItemOf<List> = List extends { data: readonly (infer Item)[] } ? Item : never;

/**
 * Defines a change (see ChangeOperation); the identity, for the types of its call and of what it
 * answers: a resource of another shape than its `answers` schema is a compile error.
 */
export function defineChange<
  Body = undefined,
  Query = undefined,
  Target = undefined,
  Schemas extends AnswerSchemas = AnswerSchemas,
  Id extends string = string,
>(
  operation: ChangeOperation<Body, Query, Target, NoInfer<SendsOf<Schemas>>> & Defines<Id, Schemas>,
): Omit<ChangeOperation<Body, Query, Target, SendsOf<Schemas>>, keyof Defines<Id, Schemas>> & Defines<Id, Schemas> {
  return operation;
}

/**
 * Defines a read or an action (see ActionOperation); the identity, for the types of its call and
 * of what it answers: a resource of another shape than its `answers` schema is a compile error.
 * A literal in a resource written out in place needs `as const` (or `satisfies` its type): the
 * answer's type is inferred from the same definition, too late to keep the literal's type.
 */
export function defineAction<
  Body = undefined,
  Query = undefined,
  Target = undefined,
  Schemas extends AnswerSchemas = AnswerSchemas,
  Id extends string = string,
>(
  operation: ActionOperation<Body, Query, Target, NoInfer<SendsOf<Schemas>>> & Defines<Id, Schemas>,
): Omit<ActionOperation<Body, Query, Target, SendsOf<Schemas>>, keyof Defines<Id, Schemas>> & Defines<Id, Schemas> {
  return operation;
}

/** Defines an operation that holds its request (see HeldOperation). */
export function defineHeld<Body = undefined, Query = undefined, Target = undefined>(
  operation: HeldOperation<Body, Query, Target>,
): HeldOperation<Body, Query, Target> {
  return operation;
}

/** Codes that only the operations naming them in `ownErrors` answer: none but those may answer them. */
export const OPERATION_OWN_CODES: readonly ErrorCode[] = ["instance_limit", "nested_instance", "wait_timeout", "shutting_down"];

import type * as z from "zod";
import { listEnvelopeSchema, withRequestIdSchema } from "../../contracts/common.js";
import { deletedFaultSchema, faultRuleInput, faultSchema, faultsClearedSchema, listFaultRulesQuery } from "../../contracts/faults.js";
import { clockAdvanceInput, clockSchema, resetAnswerSchema, resetInput } from "../../contracts/sandbox.js";
import { ApiError } from "../../domain/errors.js";
import { ClockRangeError } from "../../runtime/clock.js";
import { answering, EXAMPLE_CLOCK, EXAMPLE_FAULT, listing } from "./examples.js";
import { pageOfWhole } from "../list-query.js";
import { defineAction } from "./define.js";
import { ingestWebhookEvent } from "./events.js";
import { transitionPayout } from "./payouts.js";

/** Moves the clock forward; the dashboard's advance buttons make this call. */
export const advanceClock = defineAction({
  operationId: "advanceClock",
  method: "post",
  path: "/v1/sandbox/clock/advance",
  summary: "Move the virtual clock forward; everything that falls due runs before the answer",
  body: clockAdvanceInput,
  answers: { 200: withRequestIdSchema(clockSchema) },
  example: { body: { seconds: 3600 }, answer: answering(EXAMPLE_CLOCK) },
  act: async ({ deps, body }) => {
    try {
      await deps.sandbox.advance(body.seconds);
    } catch (error) {
      // Repeated advances must not carry dates past year 9999: the clock refuses, unmoved.
      if (error instanceof ClockRangeError) throw new ApiError("invalid_request", error.message, "seconds");
      throw error;
    }
    return { resource: deps.sandbox.clock() };
  },
});

/** Adds a fault rule of this company; the dashboard's Faults form makes this call. */
export const addFaultRule = defineAction({
  operationId: "addFaultRule",
  method: "post",
  path: "/v1/sandbox/faults",
  summary: "Add a fault rule: make matching requests of this company fail on purpose",
  body: faultRuleInput,
  answers: { 201: withRequestIdSchema(faultSchema) },
  example: { body: { fault: "server_error", match: EXAMPLE_FAULT.match }, answer: answering(EXAMPLE_FAULT) },
  act: ({ deps, company, body }) => ({ status: 201, resource: deps.faults.addChecked(company.id, body) }),
});

/** Removes one fault rule; the dashboard's Remove button makes this call. */
export const deleteFaultRule = defineAction({
  operationId: "deleteFaultRule",
  method: "delete",
  path: "/v1/sandbox/faults/:id",
  summary: "Remove one fault rule",
  answers: { 200: withRequestIdSchema(deletedFaultSchema) },
  example: { answer: answering({ id: EXAMPLE_FAULT.id, object: "fault", deleted: true }) },
  act: ({ deps, company, params }) => {
    deps.faults.remove(company.id, params.id!);
    return { resource: { id: params.id!, object: "fault", deleted: true } satisfies z.infer<typeof deletedFaultSchema> };
  },
});

/** Removes every fault rule of this company; the dashboard's Clear button makes this call. */
export const clearFaultRules = defineAction({
  operationId: "clearFaultRules",
  method: "delete",
  path: "/v1/sandbox/faults",
  summary: "Remove every fault rule of this company",
  answers: { 200: withRequestIdSchema(faultsClearedSchema) },
  example: { answer: answering({ object: "faults_cleared", deleted: 1 }) },
  act: ({ deps, company }) => ({
    resource: { object: "faults_cleared", deleted: deps.faults.clear(company.id) } satisfies z.infer<typeof faultsClearedSchema>,
  }),
});

/** /v1/sandbox: controls a real provider does not have (docs/api.md, docs/testing.md and docs/faults.md). */
export const SANDBOX_OPERATIONS = [
  defineAction({
    operationId: "getClock",
    method: "get",
    path: "/v1/sandbox/clock",
    summary: "Read the virtual clock",
    answers: { 200: withRequestIdSchema(clockSchema) },
    example: { answer: answering(EXAMPLE_CLOCK) },
    act: ({ deps }) => ({ resource: deps.sandbox.clock() }),
  }),
  advanceClock,
  addFaultRule,
  defineAction({
    operationId: "listFaultRules",
    method: "get",
    path: "/v1/sandbox/faults",
    summary: "List this company's active fault rules, oldest first",
    query: listFaultRulesQuery,
    answers: { 200: listEnvelopeSchema(faultSchema) },
    example: { answer: listing([EXAMPLE_FAULT]) },
    act: ({ deps, company, query }) => pageOfWhole(deps.faults.list(company.id), query),
  }),
  clearFaultRules,
  deleteFaultRule,
  /** Deletes this company's activity; other companies, endpoints and keys stay (docs/testing.md). */
  defineAction({
    operationId: "resetSandbox",
    method: "post",
    path: "/v1/sandbox/reset",
    summary: "Delete this company's activity",
    body: resetInput,
    answers: { 200: withRequestIdSchema(resetAnswerSchema) },
    example: { body: {}, answer: answering({ object: "reset", deleted: { payment_intents: 2, payouts: 1, events: 3 } }) },
    act: ({ deps, company }) => ({ resource: { object: "reset", deleted: deps.sandbox.reset(company.id) } satisfies z.infer<typeof resetAnswerSchema> }),
  }),
  transitionPayout,
  ingestWebhookEvent,
];

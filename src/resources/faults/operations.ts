import type * as z from "zod";
import { listEnvelopeSchema, withRequestIdSchema } from "../../contracts/common.js";
import { deletedFaultRuleSchema, faultRuleInput, faultSchema, faultsClearedSchema, listFaultRulesQuery } from "./contract.js";
import { pageOfWhole } from "../../server/list-query.js";
import { answering, EXAMPLE_FAULT, listing } from "../../server/operations/examples.js";
import { defineAction } from "../../server/operations/define.js";

const PATH = "/v1/sandbox/faults";

/** Adds a fault rule of this company; the dashboard's Faults form makes this call. */
export const addFaultRule = defineAction({
  operationId: "addFaultRule",
  method: "post",
  path: PATH,
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
  path: `${PATH}/:id`,
  summary: "Remove one fault rule",
  answers: { 200: withRequestIdSchema(deletedFaultRuleSchema) },
  example: { answer: answering({ id: EXAMPLE_FAULT.id, object: "fault", deleted: true }) },
  act: ({ deps, company, params }) => {
    deps.faults.remove(company.id, params.id!);
    return { resource: { id: params.id!, object: "fault", deleted: true } satisfies z.infer<typeof deletedFaultRuleSchema> };
  },
});

/** Removes every fault rule of this company; the dashboard's Clear button makes this call. */
export const clearFaultRules = defineAction({
  operationId: "clearFaultRules",
  method: "delete",
  path: PATH,
  summary: "Remove every fault rule of this company",
  answers: { 200: withRequestIdSchema(faultsClearedSchema) },
  example: { answer: answering({ object: "faults_cleared", deleted: 1 }) },
  act: ({ deps, company }) => ({
    resource: { object: "faults_cleared", deleted: deps.faults.clear(company.id) } satisfies z.infer<typeof faultsClearedSchema>,
  }),
});

/** /v1/sandbox/faults: the fault rules that make this company's requests fail on purpose (docs/faults.md). */
export const FAULT_OPERATIONS = [
  addFaultRule,
  defineAction({
    operationId: "listFaultRules",
    method: "get",
    path: PATH,
    summary: "List this company's active fault rules, oldest first",
    query: listFaultRulesQuery,
    answers: { 200: listEnvelopeSchema(faultSchema) },
    example: { answer: listing([EXAMPLE_FAULT]) },
    act: ({ deps, company, query }) => pageOfWhole(deps.faults.list(company.id), query),
  }),
  clearFaultRules,
  deleteFaultRule,
];
